// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/CpuidSource.h"

namespace rdt {

void CpuidTable::set(std::uint32_t leaf, std::uint32_t subleaf, const CpuidRegs& regs, bool subleafLabelled)
{
    m_entries[{ leaf, subleaf }] = Entry { leaf, subleaf, subleafLabelled, regs };
}

std::optional<CpuidRegs> CpuidTable::query(std::uint32_t leaf, std::uint32_t subleaf)
{
    if (auto it = m_entries.find({ leaf, subleaf }); it != m_entries.end()) return it->second.regs;
    // The instruction ignores ECX for these leaves, so sub-leaf 0's answer is the answer for any ECX.
    if (subleaf != 0 && leafIgnoresSubleaf(leaf)) {
        if (auto it = m_entries.find({ leaf, 0 }); it != m_entries.end()) return it->second.regs;
    }
    return std::nullopt;
}

std::vector<CpuidTable::Entry> CpuidTable::entries() const
{
    std::vector<Entry> out;
    out.reserve(m_entries.size());
    for (const auto& [key, entry] : m_entries)
        out.push_back(entry);
    return out;
}

bool CpuidTable::leafIgnoresSubleaf(std::uint32_t leaf)
{
    // Leaves with sub-leaves (SDM Vol. 2A, CPUID): everything else ignores ECX.
    switch (leaf) {
    case 0x04:
    case 0x07:
    case 0x0B:
    case 0x0D:
    case 0x0F:
    case 0x10:
    case 0x12:
    case 0x14:
    case 0x17:
    case 0x18:
    case 0x1A:
    case 0x1D:
    case 0x1E:
    case 0x1F:
    case 0x20:
    case 0x23:
    case 0x24:
    case 0x27:
    case 0x28:
    case 0x8000001D:
    case 0x80000020:
    case 0x80000026:
        return false;
    default:
        return true;
    }
}

namespace {

/// How many sub-leaves to read for a leaf that has them; the count is small and fixed where the SDM gives
/// no terminator, so a snapshot stays a few KiB.
unsigned subleafLimit(std::uint32_t leaf)
{
    switch (leaf) {
    case 0x04:
        return 16; // stops earlier at cache type 0
    case 0x07:
        return 4;
    case 0x0B:
    case 0x1F:
        return 8; // stops earlier at level type 0
    case 0x0D:
        return 20;
    case 0x0F:
        return 4;
    case 0x10:
        return 8;
    case 0x12:
        return 5;
    case 0x14:
    case 0x17:
    case 0x1D:
    case 0x1E:
    case 0x20:
    case 0x24:
        return 4;
    case 0x18:
        return 8;
    case 0x23:
        return 8;
    case 0x27:
        return 4;
    case 0x28:
        return 8;
    // AMD (AMD64 APM vol. 3, appendix E): cache properties stop at cache type 0; Platform QoS has sub-leaves 1-3
    // (L3 MBA, SMBA, BMEC) and 5 (ABMC); extended topology stops at level type 0.
    case 0x8000001D:
        return 16;
    case 0x80000020:
        return 8;
    case 0x80000026:
        return 8;
    default:
        return 1;
    }
}

void snapshotLeaf(CpuidSource& source, CpuidTable& table, std::uint32_t leaf)
{
    if (CpuidTable::leafIgnoresSubleaf(leaf)) {
        if (auto regs = source.query(leaf, 0)) table.set(leaf, 0, *regs, false);
        return;
    }
    const unsigned limit = subleafLimit(leaf);
    for (std::uint32_t sub = 0; sub < limit; ++sub) {
        auto regs = source.query(leaf, sub);
        if (!regs) continue;
        table.set(leaf, sub, *regs, true);
        if ((leaf == 0x04 || leaf == 0x8000001D) && (regs->eax & 0x1F) == 0) break;
        if ((leaf == 0x0B || leaf == 0x1F || leaf == 0x80000026) && ((regs->ecx >> 8) & 0xFF) == 0) break;
    }
}

} // namespace

CpuidTable snapshotCpuid(CpuidSource& source)
{
    CpuidTable table(source.describe());
    const auto leaf0 = source.query(0, 0);
    if (!leaf0) return table;
    const std::uint32_t maxBasic = leaf0->eax < 0x30 ? leaf0->eax : 0x30;
    for (std::uint32_t leaf = 0; leaf <= maxBasic; ++leaf)
        snapshotLeaf(source, table, leaf);
    if (const auto ext = source.query(0x80000000, 0)) {
        table.set(0x80000000, 0, *ext, false);
        const std::uint32_t maxExt = ext->eax >= 0x80000000 && ext->eax < 0x80000030 ? ext->eax : 0x80000000;
        for (std::uint32_t leaf = 0x80000001; leaf <= maxExt; ++leaf)
            snapshotLeaf(source, table, leaf);
    }
    return table;
}

} // namespace rdt
