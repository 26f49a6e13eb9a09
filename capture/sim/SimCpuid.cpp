// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimCpuid.h"

#include "platform/CpuidDump.h"

#include <cerrno>

namespace rdt::sim {

CpuidRegs SimCpuid::query(std::uint32_t leaf, std::uint32_t subleaf) const
{
    auto it = m_leaves.find({ leaf, subleaf });
    return it == m_leaves.end() ? CpuidRegs {} : it->second;
}

std::string SimCpuid::brand() const
{
    std::string s;
    for (std::uint32_t leaf = 0x80000002; leaf <= 0x80000004; ++leaf) {
        if (!has(leaf, 0)) return {};
        CpuidRegs r = query(leaf, 0);
        for (std::uint32_t v : { r.eax, r.ebx, r.ecx, r.edx })
            for (int i = 0; i < 4; ++i) {
                char ch = static_cast<char>((v >> (8 * i)) & 0xFF);
                if (ch != 0) s.push_back(ch);
            }
    }
    auto first = s.find_first_not_of(' ');
    return first == std::string::npos ? std::string {} : s.substr(first);
}

rdt::CpuidTable SimCpuid::table() const
{
    rdt::CpuidTable t("simulated " + name + " (" + source + ")");
    for (const auto& [key, regs] : m_leaves)
        t.set(key.first, key.second, regs);
    return t;
}

SimCpuid SimCpuid::fromTable(const rdt::CpuidTable& table)
{
    SimCpuid c;
    for (const auto& e : table.entries())
        c.set(e.leaf, e.subleaf, e.regs);
    c.source = table.describe();
    return c;
}

Result<SimCpuid> loadSimCpuid(const std::string& path)
{
    auto table = rdt::loadCpuidDump(path, 0);
    if (!table) return table.error();
    SimCpuid c = SimCpuid::fromTable(*table);
    c.source = path;
    c.name = c.brand().empty() ? path : c.brand();
    synthesizeMissingLeaves(c);
    return c;
}

void synthesizeMissingLeaves(SimCpuid& c, unsigned mbaClos)
{
    const std::uint32_t resources = c.query(0x10, 0).ebx;
    if ((resources & (1u << 3)) && !c.has(0x10, 3)) {
        // 10H.3: EAX[11:0] = max delay - 1 (90 -> 10% granularity), ECX[2] linear, EDX[15:0] = CLOS - 1.
        // These are the values Skylake-SP and later report (resctrl shows min_bandwidth 10, bandwidth_gran 10,
        // delay_linear 1); the dump does not contain the subleaf, so they are synthesized.
        c.set(0x10, 3, { 89, 0, 4, mbaClos - 1 });
        c.notes.push_back("CPUID.10H.3 (MBA) synthesized: max delay 90, linear, " + std::to_string(mbaClos)
            + " CLOS (the dump lacks this subleaf)");
    }
    if ((resources & (1u << 2)) && !c.has(0x10, 2)) {
        std::uint32_t ways = ((c.query(0x4, 2).ebx >> 22) & 0x3FF) + 1;
        if (ways > 32) ways = 32;
        c.set(0x10, 2, { ways - 1, 0, 0, 7 });
        c.notes.push_back("CPUID.10H.2 (L2 CAT) synthesized: " + std::to_string(ways)
            + "-bit mask (one bit per L2 way), 8 CLOS (the dump lacks this subleaf)");
    }
}

Status applyCpuidOverride(SimCpuid& c, const std::string& key, std::uint64_t value)
{
    auto v32 = static_cast<std::uint32_t>(value);
    auto edit = [&](std::uint32_t leaf, std::uint32_t sub, auto fn) {
        CpuidRegs r = c.query(leaf, sub);
        fn(r);
        c.set(leaf, sub, r);
    };
    auto bit = [](std::uint32_t& reg, unsigned b, bool on) { reg = on ? (reg | (1u << b)) : (reg & ~(1u << b)); };
    auto needs = [&](std::uint32_t leaf, std::uint32_t sub, const char* what) -> Status {
        if (!c.has(leaf, sub))
            return errnoError(EINVAL, "override " + key + ": the processor does not enumerate " + what,
                "pick a preset that has it (e.g. skx-6154)");
        return {};
    };
    if (key == "mbm_scale") {
        if (value == 0 || value > 0xFFFFFFFFu) return errnoError(EINVAL, "override mbm_scale must be 1..2^32-1");
        if (auto s = needs(0xF, 1, "L3 monitoring"); !s) return s;
        edit(0xF, 1, [&](CpuidRegs& r) { r.ebx = v32; });
    } else if (key == "mbm_width") {
        if (value < 24 || value > 62) return errnoError(EINVAL, "override mbm_width must be 24..62 bits (20.18.5.2)");
        if (auto s = needs(0xF, 1, "L3 monitoring"); !s) return s;
        edit(0xF, 1, [&](CpuidRegs& r) { r.eax = (r.eax & ~0xFFu) | (v32 - 24); });
    } else if (key == "overflow_bit") {
        edit(0xF, 1, [&](CpuidRegs& r) { bit(r.eax, 8, value != 0); });
    } else if (key == "num_rmids") {
        if (value < 2 || value > 1024) return errnoError(EINVAL, "override num_rmids must be 2..1024");
        edit(0xF, 0, [&](CpuidRegs& r) { r.ebx = v32 - 1; });
        edit(0xF, 1, [&](CpuidRegs& r) { r.ecx = v32 - 1; });
    } else if (key == "l3_closids") {
        if (value < 2 || value > 128) return errnoError(EINVAL, "override l3_closids must be 2..128");
        if (auto s = needs(0x10, 1, "L3 CAT"); !s) return s;
        edit(0x10, 1, [&](CpuidRegs& r) { r.edx = v32 - 1; });
    } else if (key == "l3_cdp" || key == "l3_sparse") {
        if (auto s = needs(0x10, 1, "L3 CAT"); !s) return s;
        edit(0x10, 1, [&](CpuidRegs& r) { bit(r.ecx, key == "l3_cdp" ? 2 : 3, value != 0); });
    } else if (key == "l2_cat") {
        if (value < 2 || value > 32) return errnoError(EINVAL, "override l2_cat must be a mask length of 2..32 bits");
        edit(0x7, 0, [&](CpuidRegs& r) { bit(r.ebx, 15, true); });
        edit(0x10, 0, [&](CpuidRegs& r) { bit(r.ebx, 2, true); });
        c.set(0x10, 2, { v32 - 1, 0, 0, 7 });
    } else if (key == "l2_cdp") {
        if (auto s = needs(0x10, 2, "L2 CAT (override l2_cat first)"); !s) return s;
        edit(0x10, 2, [&](CpuidRegs& r) { bit(r.ecx, 2, value != 0); });
    } else if (key == "mba_closids" || key == "mba_linear" || key == "mba_per_thread") {
        if (auto s = needs(0x10, 3, "MBA"); !s) return s;
        if (key == "mba_closids" && (value < 1 || value > 128))
            return errnoError(EINVAL, "override mba_closids must be 1..128");
        edit(0x10, 3, [&](CpuidRegs& r) {
            if (key == "mba_closids")
                r.edx = v32 - 1;
            else
                bit(r.ecx, key == "mba_linear" ? 2 : 0, value != 0);
        });
    } else if (key == "cba") {
        if (value < 1 || value > 255)
            return errnoError(EINVAL, "override cba must be a maximum throttle level of 1..255 (20.19.8.2)");
        edit(0x7, 0, [&](CpuidRegs& r) { bit(r.ebx, 15, true); });
        edit(0x10, 0, [&](CpuidRegs& r) { bit(r.ebx, 5, true); });
        // EAX[7:0] max level, EAX[11:8]=1 logical-processor scope, ECX[3] linear, EDX = 15 (16 CLOS).
        c.set(0x10, 5, { v32 | (1u << 8), 0, 1u << 3, 15 });
    } else {
        return errnoError(EINVAL, "unknown CPUID override '" + key + "'",
            "known: mbm_scale mbm_width overflow_bit num_rmids l3_closids l3_cdp l3_sparse l2_cat l2_cdp "
            "mba_closids mba_linear mba_per_thread cba");
    }
    c.notes.push_back("synthetic override: " + key + " = " + std::to_string(value));
    return {};
}

} // namespace rdt::sim
