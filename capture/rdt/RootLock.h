// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Fs.h"

namespace rdt {

/// The advisory lock the kernel's resctrl documentation asks cooperating tools to take on the resctrl root
/// (Documentation/filesystems/resctrl.rst, "Locking between applications"): flock(LOCK_EX) for changes,
/// flock(LOCK_SH) for reads. Released on scope exit.
class RootLock {
public:
    RootLock(Fs& fs, bool exclusive)
        : m_fs(fs)
        , m_status(fs.lock(exclusive))
    { }
    ~RootLock()
    {
        if (m_status.ok()) m_fs.unlock();
    }
    RootLock(const RootLock&) = delete;
    RootLock& operator=(const RootLock&) = delete;
    const Status& status() const { return m_status; }

private:
    Fs& m_fs;
    Status m_status;
};

} // namespace rdt
