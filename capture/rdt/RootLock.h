// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Fs.h"

namespace rdt {

/// The advisory lock the kernel's resctrl documentation asks cooperating tools to take on the resctrl root
/// (Documentation/filesystems/resctrl.rst, "Locking between applications"): flock(LOCK_EX) for changes,
/// flock(LOCK_SH) for reads. Released on scope exit. When the backend already holds the exclusive lock for a
/// transaction (`transactionDepth` > 0, same thread: the backend's mutex is held), this takes nothing and
/// releases nothing, so an operation inside a transaction never downgrades or drops the transaction's lock.
class RootLock {
public:
    RootLock(Fs& fs, bool exclusive, int transactionDepth = 0)
        : m_fs(fs)
        , m_taken(transactionDepth == 0)
        , m_status(m_taken ? fs.lock(exclusive) : Status {})
    { }
    ~RootLock()
    {
        if (m_taken && m_status.ok()) m_fs.unlock();
    }
    RootLock(const RootLock&) = delete;
    RootLock& operator=(const RootLock&) = delete;
    const Status& status() const { return m_status; }

private:
    Fs& m_fs;
    bool m_taken;
    Status m_status;
};

} // namespace rdt
