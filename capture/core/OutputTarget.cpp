// SPDX-License-Identifier: GPL-3.0-or-later
#include "OutputTarget.h"

#include "core/UniqueFd.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rdt {

namespace {

const char* kindOfNode(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISLNK(mode)) return "a symbolic link";
    return "not a regular file";
}

/// The first bytes of a regular file, opened so that nothing but a regular file is read (O_NOFOLLOW, O_NONBLOCK,
/// the descriptor checked to be the inode lstat saw).
Result<std::string> headOf(const std::string& path, const struct stat& seen)
{
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (!fd) return errnoError(errno, "cannot read " + path + " to see what it is");
    struct stat st { };
    if (::fstat(fd.get(), &st) != 0) return errnoError(errno, "cannot look at " + path);
    if (!S_ISREG(st.st_mode) || st.st_dev != seen.st_dev || st.st_ino != seen.st_ino)
        return makeError(path + " changed while it was checked", "run the command again");
    std::string head(kOutputHeadBytes, '\0');
    std::size_t got = 0;
    while (got < head.size()) {
        const ssize_t n = ::read(fd.get(), head.data() + got, head.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errnoError(errno, "cannot read " + path + " to see what it is");
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    head.resize(got);
    return head;
}

std::string_view skipBlanks(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    return s;
}

bool consume(std::string_view& s, std::string_view token)
{
    s = skipBlanks(s);
    if (s.substr(0, token.size()) != token) return false;
    s.remove_prefix(token.size());
    return true;
}

} // namespace

bool headStartsWithLine(std::string_view head, std::string_view line)
{
    return head.size() > line.size() && head.substr(0, line.size()) == line
        && (head[line.size()] == '\n' || head[line.size()] == '\r');
}

bool headIsJsonFormat(std::string_view head, std::string_view name)
{
    return consume(head, "{") && consume(head, "\"format\"") && consume(head, ":") && consume(head, "\"")
        && head.substr(0, name.size()) == name && head.substr(name.size(), 1) == "\"";
}

Result<OutputTarget> checkOutputTarget(const std::string& path, const OutputRule& rule)
{
    if (path.empty()) return makeError("an empty output file name", "give the " + rule.kind + " a name (-o FILE)");
    struct stat st { };
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return OutputTarget { false };
        return errnoError(errno, "cannot look at " + path);
    }
    const std::string forceOrNot = rule.hasForce ? ", --force or not" : "";
    if (!S_ISREG(st.st_mode))
        return makeError(path + " is " + kindOfNode(st.st_mode) + "; rdtscope writes a " + rule.kind
                + " only to a regular file and never replaces anything else" + forceOrNot,
            "choose a file name in a directory you can write");
    for (const auto& input : rule.inputs) {
        struct stat in { };
        if (input.empty() || input == "-" || ::stat(input.c_str(), &in) != 0) continue;
        if (in.st_dev == st.st_dev && in.st_ino == st.st_ino)
            return makeError(path + " is the command's own input" + (input == path ? "" : " (" + input + ")")
                    + ": writing the " + rule.kind + " there would destroy what it is made from" + forceOrNot,
                "choose another output file name");
    }
    if (!rule.force)
        return errnoError(EEXIST, "will not overwrite " + path,
            rule.hasForce ? "choose another name, or pass --force (it replaces only a " + rule.kind + ")"
                          : std::string("choose another name"));
    auto head = headOf(path, st);
    if (!head) return head.error();
    if (!rule.isOwnKind || !rule.isOwnKind(*head, path))
        return makeError(path + " is not a " + rule.kind + "; --force replaces only a " + rule.kind,
            "choose another name, or remove the file yourself if it is yours to lose");
    return OutputTarget { true };
}

} // namespace rdt
