// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "platform/MsrSpace.h"

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace rdt {

/// The undo log of one MSR change (docs/SAFE-WRITES.md, "Transactions"). Every write goes through it: the first
/// write of each (CPU, MSR) pair reads the old value first, and no write happens when that read fails. On a
/// failure the caller rolls back: every logged MSR is written back, newest first, including the one whose write
/// failed (a WRMSR that reported an error may or may not have changed the register: the read-back decides, and a
/// blind write-back of the old value is harmless), then read back and compared.
class MsrUndoLog {
public:
    explicit MsrUndoLog(MsrSpace& msrs)
        : m_msrs(msrs)
    { }

    Status write(unsigned cpu, std::uint32_t msr, std::uint64_t value);
    Result<std::uint64_t> read(unsigned cpu, std::uint32_t msr) { return m_msrs.read(cpu, msr); }

    /// Restores every logged MSR and checks it. Returns what it did ("restored 6 MSRs") or, when a register
    /// could not be restored, says which ones (ok() false): the hardware is then in a mixed state and the text
    /// says exactly where.
    struct Outcome {
        bool ok = true;
        std::string text;
    };
    Outcome rollback();
    std::size_t size() const { return m_entries.size(); }

private:
    struct Entry {
        unsigned cpu;
        std::uint32_t msr;
        std::uint64_t old;
    };
    MsrSpace& m_msrs;
    std::vector<Entry> m_entries;
    std::set<std::pair<unsigned, std::uint32_t>> m_logged;
};

} // namespace rdt
