// SPDX-License-Identifier: GPL-3.0-or-later
#include "PrivateSessionCopy.h"

#include "core/UniqueFd.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace rdt::session {

namespace {

/// A recorder is writing `path`: it holds the flock(2) SessionFileClaim takes for the whole recording.
bool recorderHolds(const std::string& path)
{
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (!fd) return false;
    if (::flock(fd.get(), LOCK_SH | LOCK_NB) == 0) return false; // released when fd closes
    return errno == EWOULDBLOCK;
}

} // namespace

Result<std::optional<PrivateSessionCopy>> PrivateSessionCopy::makeIfNeeded(const std::string& path)
{
    struct stat wal { };
    if (::lstat((path + "-wal").c_str(), &wal) != 0 || !S_ISREG(wal.st_mode))
        return std::optional<PrivateSessionCopy> {};
    if (recorderHolds(path)) return std::optional<PrivateSessionCopy> {};
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/rdtscope-read-XXXXXX";
    if (!::mkdtemp(templ.data())) return errnoError(errno, "cannot make a private copy of " + path + "-wal");
    PrivateSessionCopy copy;
    copy.m_dir = templ;
    copy.m_path = templ + "/session.rdts";
    std::error_code ec;
    std::filesystem::copy_file(path, copy.m_path, ec);
    if (!ec) std::filesystem::copy_file(path + "-wal", copy.m_path + "-wal", ec);
    if (ec)
        return makeError("cannot copy " + path + " and its -wal to " + copy.m_dir + " to read them: " + ec.message(),
            "free space in $TMPDIR, or fold the log into the file first: sqlite3 FILE \"PRAGMA wal_checkpoint\"");
    return std::optional<PrivateSessionCopy>(std::move(copy));
}

PrivateSessionCopy::PrivateSessionCopy(PrivateSessionCopy&& other) noexcept
    : m_dir(std::exchange(other.m_dir, std::string()))
    , m_path(std::exchange(other.m_path, std::string()))
{ }

PrivateSessionCopy& PrivateSessionCopy::operator=(PrivateSessionCopy&& other) noexcept
{
    if (this != &other) {
        remove();
        m_dir = std::exchange(other.m_dir, std::string());
        m_path = std::exchange(other.m_path, std::string());
    }
    return *this;
}

PrivateSessionCopy::~PrivateSessionCopy()
{
    remove();
}

void PrivateSessionCopy::remove()
{
    if (m_dir.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(m_dir, ec);
    m_dir.clear();
}

} // namespace rdt::session
