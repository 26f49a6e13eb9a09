// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionFileClaim.h"

#include "Schema.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rdt::session {

namespace {

Error busy(const std::string& path)
{
    return makeError("another rdtscope is writing " + path + " (it holds the file's lock)",
        "stop that recording first, or choose another name");
}

std::uint32_t bigEndian32(std::string_view bytes, std::size_t at)
{
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i)
        v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
    return v;
}

/// The database header (SQLite's file format, section 1.3): the magic string, application_id at offset 68.
bool sessionHeader(std::string_view page)
{
    static constexpr std::string_view kMagic("SQLite format 3\0", 16);
    return page.size() >= 72 && page.substr(0, 16) == kMagic
        && bigEndian32(page, 68) == static_cast<std::uint32_t>(kApplicationId);
}

/// A session whose main file is still empty (nothing checkpointed yet: a recording running or killed) keeps its
/// first page in PATH-wal (SQLite's file format, section 4.1: a 32-byte WAL header, then frames of a 24-byte
/// header whose first field is the page number, and the page).
bool sessionInWriteAheadLog(const std::string& path)
{
    const std::string wal = path + "-wal";
    struct stat st { };
    if (::lstat(wal.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    const int fd = ::open(wal.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    std::string bytes(56 + 72, '\0');
    const ssize_t n = ::pread(fd, bytes.data(), bytes.size(), 0);
    ::close(fd);
    if (n != static_cast<ssize_t>(bytes.size())) return false;
    const std::uint32_t magic = bigEndian32(bytes, 0);
    return (magic == 0x377f0682 || magic == 0x377f0683) && bigEndian32(bytes, 32) == 1
        && sessionHeader(std::string_view(bytes).substr(56));
}

/// Removes the old session's SQLite companions; the caller holds the old file's lock.
Status removeCompanions(const std::string& path)
{
    for (const char* suffix : { "-wal", "-shm", "-journal" }) {
        const std::string p = path + suffix;
        struct stat st { };
        if (::lstat(p.c_str(), &st) != 0) continue;
        if (!S_ISREG(st.st_mode)) continue; // a name we did not make: leave it to SQLite to complain
        if (::unlink(p.c_str()) != 0 && errno != ENOENT) return errnoError(errno, "cannot remove " + p);
    }
    return {};
}

} // namespace

bool looksLikeSession(std::string_view head, const std::string& path)
{
    if (head.empty()) return sessionInWriteAheadLog(path);
    return sessionHeader(head);
}

OutputRule sessionOutputRule(bool overwrite, std::vector<std::string> inputs)
{
    OutputRule rule;
    rule.kind = "session file";
    rule.isOwnKind = looksLikeSession;
    rule.force = overwrite;
    rule.inputs = std::move(inputs);
    return rule;
}

Result<SessionFileClaim> SessionFileClaim::take(
    const std::string& path, bool overwrite, const std::vector<std::string>& inputs)
{
    SessionFileClaim claim;
    claim.m_path = path;
    struct stat st { };
    if (overwrite && !path.empty() && ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        // The old file's lock first, held until the new session replaced it: a recorder still writing it is never
        // robbed of its file, and "another rdtscope is writing" is the reason given while one does.
        claim.m_fd.reset(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
        if (claim.m_fd && ::flock(claim.m_fd.get(), LOCK_EX | LOCK_NB) != 0) {
            if (errno == EWOULDBLOCK) return busy(path);
            return errnoError(errno, "cannot lock " + path);
        }
    }
    auto target = checkOutputTarget(path, sessionOutputRule(overwrite, inputs));
    if (!target) return target.error();
    if (target->exists) {
        if (!claim.m_fd) return makeError("cannot open " + path + " to replace it", "check its permissions");
        claim.m_writePath = path + ".new-" + std::to_string(::getpid());
        // A leftover of a killed replacement by a process of the same id: ours to reuse, companions included.
        if (auto s = removeCompanions(claim.m_writePath); !s) return s.error();
        if (::unlink(claim.m_writePath.c_str()) != 0 && errno != ENOENT)
            return errnoError(errno, "cannot remove " + claim.m_writePath);
        const UniqueFd created(
            ::open(claim.m_writePath.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
        if (!created) return errnoError(errno, "cannot create " + claim.m_writePath);
        return claim;
    }
    claim.m_writePath = path;
    claim.m_fd.reset(::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!claim.m_fd) {
        if (errno == EEXIST) return busy(path); // another writer created it between our check and our create
        return errnoError(errno, "cannot create " + path);
    }
    if (::flock(claim.m_fd.get(), LOCK_EX | LOCK_NB) != 0)
        return errno == EWOULDBLOCK ? busy(path) : errnoError(errno, "cannot lock " + path);
    return claim;
}

Status SessionFileClaim::commit()
{
    if (!replacing()) return {};
    // The old session may have become something else while the new one was recorded; the rule decides again.
    if (auto target = checkOutputTarget(m_path, sessionOutputRule(true)); !target)
        return makeError(target.error().message + "; the new session stays in " + m_writePath, target.error().advice);
    if (auto s = removeCompanions(m_path); !s) return s;
    if (::rename(m_writePath.c_str(), m_path.c_str()) != 0)
        return errnoError(errno, "cannot rename " + m_writePath + " to " + m_path,
            "the new session stays in " + m_writePath + "; the old one is unchanged");
    (void)removeCompanions(m_writePath); // SQLite removed them when it closed; a leftover would be stale
    m_writePath = m_path;
    return {};
}

} // namespace rdt::session
