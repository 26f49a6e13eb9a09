// SPDX-License-Identifier: GPL-3.0-or-later
#include "MsrUndoLog.h"

#include "core/Text.h"

namespace rdt {

Status MsrUndoLog::write(unsigned cpu, std::uint32_t msr, std::uint64_t value)
{
    if (m_logged.insert({ cpu, msr }).second) {
        auto old = m_msrs.read(cpu, msr);
        if (!old) {
            m_logged.erase({ cpu, msr });
            Error e = old.error();
            e.message = "RDMSR " + formatHex(msr) + " on CPU " + std::to_string(cpu)
                + " failed before the write, so it was not written (no undo value): " + e.message;
            return e;
        }
        m_entries.push_back({ cpu, msr, *old });
    }
    return m_msrs.write(cpu, msr, value);
}

MsrUndoLog::Outcome MsrUndoLog::rollback()
{
    Outcome out;
    std::size_t restored = 0;
    std::string failed;
    for (auto it = m_entries.rbegin(); it != m_entries.rend(); ++it) {
        const auto where = formatHex(it->msr) + " on CPU " + std::to_string(it->cpu);
        const auto now = m_msrs.read(it->cpu, it->msr);
        if (now && *now == it->old) continue; // the failed write did not change it
        const Status w = m_msrs.write(it->cpu, it->msr, it->old);
        const auto back = m_msrs.read(it->cpu, it->msr);
        if (w && back && *back == it->old) {
            ++restored;
            continue;
        }
        out.ok = false;
        failed += (failed.empty() ? "" : ", ") + where + " (should be " + formatHex(it->old) + ")";
    }
    out.text = "rolled back: restored " + std::to_string(restored) + " MSR value" + (restored == 1 ? "" : "s");
    if (!out.ok) out.text += "; WARNING: could not restore " + failed;
    m_entries.clear();
    m_logged.clear();
    return out;
}

} // namespace rdt
