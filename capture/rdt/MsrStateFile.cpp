// SPDX-License-Identifier: GPL-3.0-or-later
#include "MsrStateFile.h"

#include "GroupNames.h"
#include "core/AtomicFile.h"
#include "core/BoundedFile.h"
#include "core/UniqueFd.h"

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rdt {

namespace {
constexpr const char* kHeader = "# rdtscope MSR state v1: kind path clos rmid";
} // namespace

Result<std::vector<MsrStateEntry>> loadMsrState(const std::string& file)
{
    struct stat st { };
    if (::stat(file.c_str(), &st) != 0 && errno == ENOENT) return std::vector<MsrStateEntry> {};
    auto text = readBoundedFile(file, 1 << 20, "MSR state file");
    if (!text) return text.error();
    std::vector<MsrStateEntry> out;
    std::istringstream in(*text);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream words(line);
        std::string kind;
        MsrStateEntry e;
        if (!(words >> kind >> e.path >> e.clos >> e.rmid) || (kind != "control" && kind != "monitor")
            || !checkGroupPath(e.path))
            return makeError(file + ":" + std::to_string(n) + ": not a group line: '" + line + "'",
                "the file is rdtscope's own record of the MSR groups; remove it when no rdtscope runs (the groups "
                "are then found again from IA32_PQR_ASSOC, named by their CLOS)");
        e.isControl = kind == "control";
        out.push_back(std::move(e));
    }
    return out;
}

Status saveMsrState(const std::string& file, const std::vector<MsrStateEntry>& groups)
{
    const std::string dir = directoryOf(file);
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        return errnoError(errno, "cannot create " + dir + " for the MSR state file");
    UniqueFd dirFd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dirFd) return errnoError(errno, "cannot open " + dir);
    if (::flock(dirFd.get(), LOCK_EX) != 0) return errnoError(errno, "cannot lock " + dir);
    std::string text = std::string(kHeader) + "\n";
    for (const auto& g : groups)
        text += std::string(g.isControl ? "control " : "monitor ") + g.path + " " + std::to_string(g.clos) + " "
            + std::to_string(g.rmid) + "\n";
    return writeFileAtomically(file, text);
}

} // namespace rdt
