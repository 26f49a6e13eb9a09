// SPDX-License-Identifier: GPL-3.0-or-later
#include "RdtSource.h"

#include "ResctrlBackend.h"
#include "core/PosixFs.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace rdt {

bool resctrlMounted(const std::string& mountsFile, std::string* mountPoint)
{
    std::ifstream in(mountsFile);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string dev, dir, type;
        fields >> dev >> dir >> type;
        if (type == "resctrl") {
            if (mountPoint) *mountPoint = dir;
            return true;
        }
    }
    return false;
}

Result<RdtSource> openResctrlSource(const std::string& root, const std::string& why)
{
    struct stat st { };
    if (::stat(root.c_str(), &st) != 0)
        return errnoError(errno, "cannot open resctrl at " + root,
            root == "/sys/fs/resctrl" ? "mount it: mount -t resctrl resctrl /sys/fs/resctrl (needs RDT hardware)"
                                      : "give the root of a resctrl tree, e.g. --source resctrl:/sys/fs/resctrl");
    if (!S_ISDIR(st.st_mode))
        return errnoError(ENOTDIR, root + " is not a directory", "give the root of a resctrl tree");
    auto fs = std::make_shared<PosixFs>(root);
    auto backend = ResctrlBackend::open(fs);
    if (!backend) return backend.error();
    RdtSource s;
    s.warnings = (*backend)->warnings();
    // pqos (intel-cmt-cat) holds this lock while it drives RDT (docs/RESCTRL.md "Other RDT users").
    if (root == "/sys/fs/resctrl" && ::stat("/var/lock/libpqos", &st) == 0)
        s.warnings.push_back("/var/lock/libpqos exists: pqos/intel-cmt-cat may be changing RDT state too");
    s.backend = std::move(*backend);
    s.kind = "resctrl";
    s.why = why;
    s.writeTarget = root + "/schemata";
    return s;
}

api::Writability writabilityOf(
    const RdtSource& source, const std::function<bool(const std::string&, std::string*)>& canWrite)
{
    if (source.writeTarget.empty()) return api::Writability::yes();
    std::string why;
    const bool ok = canWrite ? canWrite(source.writeTarget, &why) : [&] {
        if (::access(source.writeTarget.c_str(), W_OK) == 0) return true;
        why = std::strerror(errno);
        return false;
    }();
    if (ok) return api::Writability::yes();
    const std::string reason = "no write access to " + source.writeTarget + " (" + why + ")";
    if (source.kind == "msr")
        return api::Writability::no(reason, "run as root with the msr module loaded (modprobe msr)");
    return api::Writability::no(reason, "run rdtscope as root (or with CAP_SYS_ADMIN) to change allocations");
}

} // namespace rdt
