// SPDX-License-Identifier: GPL-3.0-or-later
#include "OutputFile.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>
#include <utility>

namespace rdt {

namespace {

/// A new file beside `path` ("PATH.tmp-PID-N"), created exclusively with the default mode (0666 less the umask,
/// as fopen would), never following a link.
Result<std::pair<std::string, int>> createBeside(const std::string& path)
{
    static std::atomic<unsigned> counter { 0 };
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string tmp
            = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) return std::make_pair(tmp, fd);
        if (errno != EEXIST) return errnoError(errno, "cannot create a file beside " + path);
    }
    return errnoError(EEXIST, "cannot create a file beside " + path, "remove the old " + path + ".tmp-* files");
}

} // namespace

Result<OutputFile> OutputFile::create(const std::string& path, const OutputRule& rule)
{
    if (auto target = checkOutputTarget(path, rule); !target) return target.error();
    auto made = createBeside(path);
    if (!made) return made.error();
    OutputFile f;
    f.m_path = path;
    f.m_tmp = made->first;
    f.m_rule = rule;
    f.m_stream = ::fdopen(made->second, "w");
    if (!f.m_stream) {
        const int e = errno;
        ::close(made->second);
        ::unlink(f.m_tmp.c_str());
        return errnoError(e, "cannot write " + f.m_tmp);
    }
    return f;
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : m_path(std::move(other.m_path))
    , m_tmp(std::move(other.m_tmp))
    , m_rule(std::move(other.m_rule))
    , m_stream(std::exchange(other.m_stream, nullptr))
{
    other.m_tmp.clear();
}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept
{
    if (this != &other) {
        discard();
        m_path = std::move(other.m_path);
        m_tmp = std::exchange(other.m_tmp, std::string());
        m_rule = std::move(other.m_rule);
        m_stream = std::exchange(other.m_stream, nullptr);
    }
    return *this;
}

OutputFile::~OutputFile()
{
    discard();
}

void OutputFile::discard()
{
    if (m_stream) std::fclose(m_stream);
    m_stream = nullptr;
    if (!m_tmp.empty()) ::unlink(m_tmp.c_str());
    m_tmp.clear();
}

Status OutputFile::commit()
{
    if (!m_stream) return makeError("the output " + m_path + " was already committed or discarded");
    const auto failed = [this](int e, const std::string& what) -> Status {
        const Error err = errnoError(e, what + " (" + m_path + " is left as it was)");
        discard();
        return err;
    };
    if (std::fflush(m_stream) != 0 || std::ferror(m_stream))
        return failed(errno ? errno : EIO, "cannot write " + m_tmp);
    if (::fsync(::fileno(m_stream)) != 0) return failed(errno, "cannot write " + m_tmp);
    std::FILE* stream = std::exchange(m_stream, nullptr);
    if (std::fclose(stream) != 0) return failed(errno, "cannot write " + m_tmp);
    // The target as it is now: it may have changed while the command ran.
    auto target = checkOutputTarget(m_path, m_rule);
    if (!target) {
        discard();
        return target.error();
    }
    int renamed = target->exists ? ::rename(m_tmp.c_str(), m_path.c_str())
                                 : ::renameat2(AT_FDCWD, m_tmp.c_str(), AT_FDCWD, m_path.c_str(), RENAME_NOREPLACE);
    if (renamed != 0 && errno == EINVAL && !target->exists) {
        // A file system without RENAME_NOREPLACE (renameat2(2)): link(2) never replaces either.
        renamed = ::link(m_tmp.c_str(), m_path.c_str());
        if (renamed == 0) ::unlink(m_tmp.c_str());
    }
    if (renamed != 0) return failed(errno, "cannot rename " + m_tmp + " to " + m_path);
    m_tmp.clear();
    return {};
}

Status writeOutputFile(const std::string& path, std::string_view text, const OutputRule& rule)
{
    auto file = OutputFile::create(path, rule);
    if (!file) return file.error();
    std::fwrite(text.data(), 1, text.size(), file->stream());
    return file->commit();
}

} // namespace rdt
