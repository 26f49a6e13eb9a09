// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/Topology.h"

#include "core/IdList.h"

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
        auto parsed = parseIdList(*list, kernelCpuBound());
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
                if (auto cpus = parseIdList(*shared, kernelCpuBound()))
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
        auto cpus = parseIdList(*list, kernelCpuBound());
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
