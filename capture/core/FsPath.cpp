// SPDX-License-Identifier: GPL-3.0-or-later
#include "FsPath.h"

#include <cerrno>
#include <climits>

namespace rdt {

namespace {

Error refused(std::string_view path, const std::string& why)
{
    std::string shown;
    for (char c : path.substr(0, 120))
        shown += static_cast<unsigned char>(c) < 0x20 ? '?' : c; // a newline in a message would forge a line
    return errnoError(EINVAL, "path '" + shown + "' refused: " + why,
        "paths are group and file names below the resctrl root, e.g. p0/schemata");
}

} // namespace

Result<std::vector<std::string>> splitBeneath(std::string_view path)
{
    std::vector<std::string> out;
    if (path.empty() || path == ".") return out;
    if (path.front() == '/') return refused(path, "absolute paths leave the root");
    std::size_t start = 0;
    for (;;) {
        const auto slash = path.find('/', start);
        const auto c = path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
        if (c.empty()) return refused(path, "empty path component");
        if (c == "." || c == "..") return refused(path, "'" + std::string(c) + "' components are not allowed");
        if (c.size() > NAME_MAX) return refused(path, "a component is longer than NAME_MAX");
        for (char ch : c)
            if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
                return refused(path, "control characters (newline, tab, ...) are not allowed");
        out.emplace_back(c);
        if (slash == std::string_view::npos) return out;
        start = slash + 1;
    }
}

std::size_t readLimitFor(std::string_view fileName)
{
    constexpr std::size_t kTasksLimit = 4194304u * 8u; // PID_MAX_LIMIT x ("4194303\n")
    constexpr std::size_t kFileLimit = 1u << 20;
    return fileName == "tasks" ? kTasksLimit : kFileLimit;
}

} // namespace rdt
