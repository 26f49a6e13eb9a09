// SPDX-License-Identifier: GPL-3.0-or-later
// CPU sets as the kernel prints and parses them for resctrl's cpus (%*pb) and cpus_list (%*pbl) files. Parsing is
// capture/core's one id-list parser; this file adapts it to the emulation's per-CPU flags.
#include "CpuMask.h"

#include "core/IdList.h"

#include <cstdio>

namespace rdt::sim {
namespace {

std::vector<unsigned> idsOf(const std::vector<bool>& cpus)
{
    std::vector<unsigned> ids;
    for (std::size_t c = 0; c < cpus.size(); ++c)
        if (cpus[c]) ids.push_back(static_cast<unsigned>(c));
    return ids;
}

bool toFlags(const Result<std::vector<unsigned>>& ids, unsigned count, std::vector<bool>& out)
{
    out.assign(count, false);
    if (!ids) return false;
    for (unsigned c : *ids)
        out[c] = true; // the parser checked c < count
    return true;
}

} // namespace

// ---------------------------------------------------------------------------------------------------------------
// CPU masks, as lib/bitmap.c prints them.

std::string formatCpuMask(const std::vector<bool>& cpus)
{
    const std::size_t n = cpus.size();
    const std::size_t words = (n + 31) / 32;
    std::string out;
    for (std::size_t w = words; w-- > 0;) {
        std::uint32_t v = 0;
        for (std::size_t b = 0; b < 32 && w * 32 + b < n; ++b)
            if (cpus[w * 32 + b]) v |= 1u << b;
        // The most significant group has as many digits as its bits need; the others have 8.
        std::size_t bits = (w == words - 1 && n % 32) ? n % 32 : 32;
        std::size_t digits = (bits + 3) / 4;
        char buf[16];
        std::snprintf(buf, sizeof buf, "%0*x", static_cast<int>(digits), v);
        if (!out.empty()) out += ",";
        out += buf;
    }
    return out;
}

std::string formatCpuList(const std::vector<bool>& cpus)
{
    return formatIdList(idsOf(cpus));
}

bool parseCpuMask(const std::string& text, unsigned count, std::vector<bool>& out)
{
    // bitmap_parse (lib/bitmap-str.c) reads the words from the end and first skips separators there
    // (bitmap_find_region_reverse: commas and white space), so "02," is CPU 1: pqos writes its masks that way.
    std::string t = text.substr(0, text.find('\n'));
    while (!t.empty() && (t.back() == ',' || t.back() == ' ' || t.back() == '\t'))
        t.pop_back();
    return toFlags(rdt::parseCpuMask(t, cpuBound(count)), count, out);
}

bool parseCpuList(const std::string& text, unsigned count, std::vector<bool>& out)
{
    return toFlags(parseIdList(text, cpuBound(count)), count, out);
}

} // namespace rdt::sim
