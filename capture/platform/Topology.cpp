// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/Topology.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

namespace rdt {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> readLine(const std::string& path)
{
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::string line;
    std::getline(in, line);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' '))
        line.pop_back();
    return line;
}

std::optional<long> readNumber(const std::string& path)
{
    auto s = readLine(path);
    if (!s || s->empty()) return std::nullopt;
    char* end = nullptr;
    const long v = std::strtol(s->c_str(), &end, 10);
    if (end == s->c_str()) return std::nullopt;
    return v;
}

/// Entries of `dir` named prefix<number>, as numbers, sorted.
std::vector<unsigned> numberedEntries(const std::string& dir, const std::string& prefix)
{
    std::vector<unsigned> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string digits = name.substr(prefix.size());
        if (digits.find_first_not_of("0123456789") != std::string::npos) continue;
        out.push_back(static_cast<unsigned>(std::strtoul(digits.c_str(), nullptr, 10)));
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

Result<std::vector<unsigned>> parseCpuList(const std::string& text)
{
    std::vector<unsigned> out;
    std::string t;
    for (char c : text)
        if (c != '\n' && c != '\r' && c != ' ') t += c;
    if (t.empty()) return out;
    std::istringstream in(t);
    std::string part;
    while (std::getline(in, part, ',')) {
        const auto dash = part.find('-');
        const std::string a = part.substr(0, dash);
        const std::string b = dash == std::string::npos ? a : part.substr(dash + 1);
        if (a.empty() || b.empty() || a.find_first_not_of("0123456789") != std::string::npos
            || b.find_first_not_of("0123456789") != std::string::npos || a.size() > 6 || b.size() > 6)
            return errnoError(EINVAL, "cannot parse CPU list \"" + text + "\"", "expected e.g. 0-3,8,10-11");
        const unsigned lo = static_cast<unsigned>(std::strtoul(a.c_str(), nullptr, 10));
        const unsigned hi = static_cast<unsigned>(std::strtoul(b.c_str(), nullptr, 10));
        if (hi < lo)
            return errnoError(EINVAL, "cannot parse CPU list \"" + text + "\": range " + part + " is reversed");
        for (unsigned c = lo; c <= hi; ++c)
            out.push_back(c);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string formatCpuList(const std::vector<unsigned>& cpus)
{
    std::string out;
    for (std::size_t i = 0; i < cpus.size();) {
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1)
            ++j;
        if (!out.empty()) out += ',';
        out += std::to_string(cpus[i]);
        if (j > i) out += '-' + std::to_string(cpus[j]);
        i = j + 1;
    }
    return out;
}

unsigned Topology::packageCount() const
{
    std::set<int> packages;
    for (const auto& c : cpus)
        packages.insert(c.package);
    return static_cast<unsigned>(packages.size());
}

unsigned Topology::coreCount() const
{
    std::set<std::tuple<int, int, int>> cores;
    for (const auto& c : cpus)
        cores.insert({ c.package, c.die, c.core });
    return static_cast<unsigned>(cores.size());
}

Result<Topology> readTopology(const std::string& sysRoot)
{
    Topology t;
    t.root = sysRoot;
    const std::string cpuDir = sysRoot + "/devices/system/cpu";
    std::vector<unsigned> online;
    if (auto list = readLine(cpuDir + "/online")) {
        auto parsed = parseCpuList(*list);
        if (!parsed)
            t.warnings.push_back(cpuDir + "/online: " + parsed.error().message);
        else
            online = *parsed;
    }
    if (online.empty()) online = numberedEntries(cpuDir, "cpu");
    if (online.empty())
        return errnoError(ENOENT, "no CPUs found under " + cpuDir, "pass the sysfs root, e.g. --sysfs /sys");

    std::map<std::pair<unsigned, unsigned>, CacheDomain> caches; // (level, id) -> domain
    for (unsigned cpu : online) {
        const std::string base = cpuDir + "/cpu" + std::to_string(cpu);
        CpuTopology ct;
        ct.cpu = cpu;
        ct.package = static_cast<int>(readNumber(base + "/topology/physical_package_id").value_or(-1));
        ct.die = static_cast<int>(readNumber(base + "/topology/die_id").value_or(-1));
        ct.core = static_cast<int>(readNumber(base + "/topology/core_id").value_or(-1));
        if (ct.package < 0 || ct.core < 0)
            t.warnings.push_back(base + "/topology: physical_package_id or core_id missing");
        t.cpus.push_back(ct);

        for (unsigned index : numberedEntries(base + "/cache", "index")) {
            const std::string ib = base + "/cache/index" + std::to_string(index);
            const auto level = readNumber(ib + "/level");
            const auto type = readLine(ib + "/type");
            if (!level || !type || (*level != 2 && *level != 3) || *type == "Instruction") continue;
            const auto id = readNumber(ib + "/id");
            if (!id || *id < 0) {
                t.warnings.push_back(ib + "/id missing: the kernel does not report cache ids (resctrl domains)");
                continue;
            }
            auto& d = caches[{ static_cast<unsigned>(*level), static_cast<unsigned>(*id) }];
            if (!d.cpus.empty()) continue;
            d.level = static_cast<unsigned>(*level);
            d.type = *type;
            d.id = static_cast<unsigned>(*id);
            d.size = readLine(ib + "/size").value_or("");
            if (auto shared = readLine(ib + "/shared_cpu_list")) {
                if (auto cpus = parseCpuList(*shared))
                    d.cpus = *cpus;
                else
                    t.warnings.push_back(ib + "/shared_cpu_list: " + cpus.error().message);
            }
            if (d.cpus.empty()) d.cpus.push_back(cpu);
        }
    }
    for (const auto& [key, d] : caches)
        (key.first == 2 ? t.l2 : t.l3).push_back(d);

    const std::string nodeDir = sysRoot + "/devices/system/node";
    for (unsigned node : numberedEntries(nodeDir, "node")) {
        const std::string path = nodeDir + "/node" + std::to_string(node) + "/cpulist";
        auto list = readLine(path);
        if (!list) {
            t.warnings.push_back(path + " unreadable");
            continue;
        }
        auto cpus = parseCpuList(*list);
        if (!cpus) {
            t.warnings.push_back(path + ": " + cpus.error().message);
            continue;
        }
        t.nodes[node] = *cpus;
        for (unsigned c : *cpus)
            for (auto& ct : t.cpus)
                if (ct.cpu == c) ct.node = static_cast<int>(node);
    }
    return t;
}

} // namespace rdt
