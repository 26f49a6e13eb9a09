// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Result.h"
#include "UniqueFd.h"

#include <string>
#include <vector>

namespace rdt {

/// The filesystem seam under the resctrl backend (docs/ARCHITECTURE.md "The seams"). Paths are relative to the
/// root ("info/L3/cbm_mask", "p0/schemata") and confined to it: every implementation refuses paths that could
/// leave the root (splitBeneath in FsPath.h), and PosixFs resolves them without following any symbolic link.
/// PosixFs serves the real /sys/fs/resctrl or a copied fixture tree; SimResctrlFs (capture/sim) emulates the
/// kernel over the simulated machine.
class Fs {
public:
    virtual ~Fs() = default;

    /// Whole content of a regular file, at most readLimitFor(name) bytes (larger files are refused). Errors carry
    /// the errno the kernel gave (ENOENT, EACCES, EIO for "Error" counters ...); anything that is not a regular
    /// file (a directory, a FIFO, a device, a symbolic link) is refused without opening it for reading.
    virtual Result<std::string> read(const std::string& path) = 0;
    /// One write(2) of the whole buffer, as `echo ... > file` does; the kernel parses it as one command.
    virtual Status write(const std::string& path, const std::string& data) = 0;
    virtual Status mkdir(const std::string& path) = 0;
    virtual Status rmdir(const std::string& path) = 0;
    /// Names of the entries of a directory (no "." or ".."), sorted.
    virtual Result<std::vector<std::string>> list(const std::string& path) = 0;
    /// Whether the entry exists (a symbolic link exists, but is never followed).
    virtual bool exists(const std::string& path) = 0;
    /// A real directory (not a symbolic link to one).
    virtual bool isDirectory(const std::string& path) = 0;
    /// A regular file kept open for repeated pread(2) at offset 0: mon_data counters, where kernfs regenerates
    /// the content on each read at offset 0, so one open serves every poll. ENOTSUP when this Fs has no file
    /// descriptors (the simulated kernel); callers then use read().
    virtual Result<UniqueFd> openForPolling(const std::string& path) = 0;
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
