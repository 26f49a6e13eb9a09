// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace rdt {

/// An engine error as a value: what failed, why (errno when a syscall said so) and what the user can do.
struct Error {
    int code = 0; ///< errno value, or 0 when no syscall was involved
    std::string message; ///< what failed, e.g. "cannot write /sys/fs/resctrl/p0/schemata"
    std::string advice; ///< what to do about it, e.g. "run as root or grant CAP_SYS_ADMIN"

    /// "message: strerror(code) (advice)"; the form the CLI and status bar print.
    std::string toString() const;
};

/// Builds an Error from errno, adding a generic advice line for the common codes when none is given.
Error errnoError(int code, std::string message, std::string advice = {});
Error makeError(std::string message, std::string advice = {});

/// Generic advice for an errno value (EACCES, EPERM, ENOENT, EBUSY, ENOSPC, ...); empty when there is none.
std::string adviceForErrno(int code);
/// EACCES/EPERM advice that fits who was refused: "run as root" for a user, a security module or container limit
/// for root (running as root again would not help). `capabilities` names what the operation needs.
std::string permissionDeniedAdvice(const std::string& capabilities);

} // namespace rdt
