// SPDX-License-Identifier: GPL-3.0-or-later
// CPU sets as the kernel prints and parses them for resctrl's cpus (%*pb) and cpus_list (%*pbl) files.
#include "SimResctrlFs.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace rdt::sim {
namespace {

std::string trimWs(const std::string& s)
{
    auto b = s.find_first_not_of(" \t\n\r\v\f");
    if (b == std::string::npos) return {};
    auto e = s.find_last_not_of(" \t\n\r\v\f");
    return s.substr(b, e - b + 1);
}

} // namespace

// ---------------------------------------------------------------------------------------------------------------
// CPU masks, as lib/bitmap.c prints and parses them.

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
    std::string out;
    for (std::size_t i = 0; i < cpus.size();) {
        if (!cpus[i]) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1])
            ++j;
        if (!out.empty()) out += ",";
        out += std::to_string(i);
        if (j > i) out += "-" + std::to_string(j);
        i = j + 1;
    }
    return out;
}

bool parseCpuMask(const std::string& text, unsigned count, std::vector<bool>& out)
{
    std::string t = trimWs(text);
    out.assign(count, false);
    if (t.empty()) return true;
    std::vector<std::string> groups;
    std::string cur;
    for (char c : t) {
        if (c == ',') {
            groups.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(c);
        }
    }
    groups.push_back(cur);
    std::size_t word = 0;
    for (auto it = groups.rbegin(); it != groups.rend(); ++it, ++word) {
        if (it->empty() || it->size() > 8 || it->find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
            return false;
        auto v = static_cast<std::uint32_t>(std::strtoul(it->c_str(), nullptr, 16));
        for (unsigned b = 0; b < 32; ++b)
            if (v & (1u << b)) {
                std::size_t cpu = word * 32 + b;
                if (cpu >= count) return false;
                out[cpu] = true;
            }
    }
    return true;
}

bool parseCpuList(const std::string& text, unsigned count, std::vector<bool>& out)
{
    std::string t = trimWs(text);
    out.assign(count, false);
    if (t.empty()) return true;
    std::stringstream ss(t);
    std::string part;
    while (std::getline(ss, part, ',')) {
        if (part.empty() || part.find_first_not_of("0123456789-") != std::string::npos) return false;
        auto dash = part.find('-');
        unsigned long a = 0, b = 0;
        if (dash == std::string::npos) {
            a = b = std::strtoul(part.c_str(), nullptr, 10);
        } else {
            if (dash == 0 || dash + 1 >= part.size() || part.find('-', dash + 1) != std::string::npos) return false;
            a = std::strtoul(part.substr(0, dash).c_str(), nullptr, 10);
            b = std::strtoul(part.substr(dash + 1).c_str(), nullptr, 10);
        }
        if (a > b || b >= count) return false;
        for (unsigned long c = a; c <= b; ++c)
            out[c] = true;
    }
    return true;
}

} // namespace rdt::sim
