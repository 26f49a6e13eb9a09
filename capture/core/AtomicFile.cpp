// SPDX-License-Identifier: GPL-3.0-or-later
#include "AtomicFile.h"

#include "core/UniqueFd.h"

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace rdt {

Status writeFileAtomically(const std::string& file, std::string_view text)
{
    const std::string tmp = file + ".tmp";
    UniqueFd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!fd) return errnoError(errno, "cannot write " + tmp);
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd.get(), text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int e = n < 0 ? errno : EIO;
            ::unlink(tmp.c_str());
            return errnoError(e, "cannot write " + tmp);
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd.get()) != 0) {
        const int e = errno;
        ::unlink(tmp.c_str());
        return errnoError(e, "cannot write " + tmp);
    }
    if (::rename(tmp.c_str(), file.c_str()) != 0) {
        const int e = errno;
        ::unlink(tmp.c_str());
        return errnoError(e, "cannot replace " + file);
    }
    return {};
}

std::string directoryOf(const std::string& file)
{
    const auto slash = file.rfind('/');
    return slash == std::string::npos ? std::string(".") : (slash == 0 ? std::string("/") : file.substr(0, slash));
}

} // namespace rdt
