// SPDX-License-Identifier: GPL-3.0-or-later
#include "BoundedFile.h"

#include "UniqueFd.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rdt {

namespace {

std::string sizeText(std::size_t bytes)
{
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    if (bytes >= (1u << 10) && bytes % (1u << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
    return std::to_string(bytes) + " bytes";
}

} // namespace

namespace {

/// A user's input file opened for reading, refused unless it is a regular file. O_NONBLOCK: opening a FIFO for
/// reading would otherwise wait for a writer before fstat can refuse it.
Result<UniqueFd> openRegularInput(const std::string& path, const std::string& what, struct stat& st)
{
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
    if (!fd) return errnoError(errno, "cannot open " + what + " " + path);
    if (::fstat(fd.get(), &st) != 0) return errnoError(errno, "cannot read " + what + " " + path);
    if (!S_ISREG(st.st_mode))
        return makeError(what + " " + path + " is not a regular file" + (S_ISFIFO(st.st_mode) ? " (a FIFO)" : ""),
            "give the path of a " + what + " file");
    return fd;
}

} // namespace

Result<std::string> readFileHead(const std::string& path, std::size_t bytes, const std::string& what)
{
    struct stat st { };
    auto fd = openRegularInput(path, what, st);
    if (!fd) return fd.error();
    std::string head(bytes, '\0');
    std::size_t used = 0;
    while (used < head.size()) {
        const ssize_t n = ::read(fd->get(), head.data() + used, head.size() - used);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errnoError(errno, "cannot read " + what + " " + path);
        if (n == 0) break;
        used += static_cast<std::size_t>(n);
    }
    head.resize(used);
    return head;
}

Result<std::string> readBoundedFile(const std::string& path, std::size_t maxBytes, const std::string& what)
{
    struct stat st { };
    auto opened = openRegularInput(path, what, st);
    if (!opened) return opened.error();
    const UniqueFd fd = std::move(*opened);
    const std::string limit = what + " " + path + " is larger than " + sizeText(maxBytes);
    if (static_cast<std::size_t>(st.st_size) > maxBytes)
        return makeError(limit, "a " + what + " is text of at most " + sizeText(maxBytes));
    std::string text;
    text.resize(static_cast<std::size_t>(st.st_size) + 1);
    std::size_t used = 0;
    for (;;) {
        if (used == text.size()) {
            if (text.size() > maxBytes) return makeError(limit, "the file grew while it was read");
            text.resize(std::min(maxBytes + 1, text.size() * 2));
        }
        const ssize_t n = ::read(fd.get(), text.data() + used, text.size() - used);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errnoError(errno, "cannot read " + what + " " + path);
        if (n == 0) break;
        used += static_cast<std::size_t>(n);
    }
    if (used > maxBytes) return makeError(limit, "the file grew while it was read");
    text.resize(used);
    return text;
}

} // namespace rdt
