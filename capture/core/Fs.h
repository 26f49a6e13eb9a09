// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Result.h"

#include <string>
#include <vector>

namespace rdt {

/// The filesystem seam under the resctrl backend (DESIGN.md "The seams"). Paths are relative to the root
/// ("info/L3/cbm_mask", "p0/schemata"). PosixFs serves the real /sys/fs/resctrl or a copied fixture tree;
/// SimResctrlFs (capture/sim) emulates the kernel over the simulated machine.
class Fs {
public:
    virtual ~Fs() = default;

    /// Whole file content. Errors carry the errno the kernel gave (ENOENT, EACCES, EIO for "Error" counters ...).
    virtual Result<std::string> read(const std::string& path) = 0;
    /// One write(2) of the whole buffer, as `echo ... > file` does; the kernel parses it as one command.
    virtual Status write(const std::string& path, const std::string& data) = 0;
    virtual Status mkdir(const std::string& path) = 0;
    virtual Status rmdir(const std::string& path) = 0;
    /// Names of the entries of a directory (no "." or ".."), sorted.
    virtual Result<std::vector<std::string>> list(const std::string& path) = 0;
    virtual bool exists(const std::string& path) = 0;
    virtual bool isDirectory(const std::string& path) = 0;
    /// Whether a process or thread with this id exists for the kernel behind this Fs (PosixFs: /proc/PID; the
    /// simulated kernel: a simulated thread), so a task list can be checked before anything moves.
    virtual bool taskExists(unsigned pid) = 0;
    /// Advisory lock on the root, as the resctrl documentation asks of cooperating tools
    /// ("Locking between applications"). exclusive=false takes a shared lock.
    virtual Status lock(bool exclusive) = 0;
    virtual void unlock() = 0;
    /// Human-readable description of where this Fs reads, e.g. "/sys/fs/resctrl" or "simulated kernel".
    virtual std::string describe() const = 0;
};

} // namespace rdt
