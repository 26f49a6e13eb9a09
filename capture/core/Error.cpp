// SPDX-License-Identifier: GPL-3.0-or-later
#include "Error.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rdt {

std::string Error::toString() const
{
    std::string s = message;
    if (code != 0) {
        s += ": ";
        s += std::strerror(code);
    }
    if (!advice.empty()) {
        s += " (";
        s += advice;
        s += ")";
    }
    return s;
}

std::string permissionDeniedAdvice(const std::string& capabilities)
{
    // Root is refused only by something above the permission bits: say that instead of "run as root".
    if (::geteuid() == 0)
        return "refused although running as root: a Linux security module (SELinux, AppArmor), a container's "
               "capability set or seccomp filter, or a read-only bind mount denies it; look for 'denied' in the "
               "kernel log (journalctl -k) or the audit log";
    return "permission denied: run as root, or grant the needed capability (" + capabilities + ")";
}

std::string adviceForErrno(int code)
{
    switch (code) {
    case EACCES:
    case EPERM:
        return permissionDeniedAdvice("CAP_SYS_ADMIN for resctrl, CAP_SYS_RAWIO for MSRs, CAP_PERFMON for perf");
    case EROFS:
        return "the file system is mounted read-only: remount it read-write (for resctrl: mount -o remount,rw "
               "/sys/fs/resctrl), or this is a read-only copy of a tree; running as root does not help";
    case ENOENT:
        return "check the path; under /sys or /dev a missing file means the feature or driver is not present";
    case EBUSY:
        return "the resource is busy: another tool (pqos, PCM, a container runtime) may be using it";
    case ENOSPC:
        return "out of hardware resources (CLOSIDs or RMIDs): remove an unused group first";
    case EINVAL:
        return "the kernel rejected the value; see the message for the rule it broke";
    case ENODEV:
    case ENXIO:
        return "the device is not present: load the driver (e.g. modprobe msr) or use the simulator";
    default:
        return {};
    }
}

Error errnoError(int code, std::string message, std::string advice)
{
    if (advice.empty()) advice = adviceForErrno(code);
    return Error { code, std::move(message), std::move(advice) };
}

Error makeError(std::string message, std::string advice)
{
    return Error { 0, std::move(message), std::move(advice) };
}

} // namespace rdt
