// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A resctrl tree the size of a big two-socket server, built from the `full` fixture (4 L3 domains, 20-bit CBM,
// MB, 16 CLOS): every CLOS used (the default group and 15 control groups) and 128 monitor groups with long,
// realistic names spread over them, each with counters for every domain. For GUI tests and benchmarks at server
// scale (issue #16); Qt-free.

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace rdt::test {

struct ServerTreeShape {
    int controlGroups = 15; ///< besides the default group: 16 CLOS in all, what info/L3/num_closids allows
    int monitorGroups = 128;
    int domains = 4;
};

/// The names of the groups makeServerTree creates (control groups, then "CONTROL/mon_groups/NAME" paths).
struct ServerTreeGroups {
    std::vector<std::string> control;
    std::vector<std::string> monitor;
};

namespace detail {
inline void writeFile(const std::filesystem::path& p, const std::string& text)
{
    std::ofstream(p, std::ios::trunc) << text;
}
inline void writeCounters(const std::filesystem::path& group, int domains, std::uint64_t seed)
{
    for (int d = 0; d < domains; ++d) {
        const auto dir = group / "mon_data" / ("mon_L3_0" + std::to_string(d));
        std::filesystem::create_directories(dir);
        const std::uint64_t v = (seed * 2654435761u + static_cast<std::uint64_t>(d) * 40503u) % 40000000u;
        writeFile(dir / "llc_occupancy", std::to_string(v - v % 65536) + "\n");
        writeFile(dir / "mbm_total_bytes", std::to_string(v * 97) + "\n");
        writeFile(dir / "mbm_local_bytes", std::to_string(v * 61) + "\n");
    }
}
} // namespace detail

/// Copies `fixtureRoot` (the `full` tree) to `root` and adds the groups; returns their names.
inline ServerTreeGroups makeServerTree(
    const std::string& fixtureRoot, const std::string& root, const ServerTreeShape& shape = {})
{
    namespace fs = std::filesystem;
    fs::copy(fixtureRoot, root, fs::copy_options::recursive);
    for (const auto& e : fs::recursive_directory_iterator(root))
        fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
    ServerTreeGroups out;
    // The fixture's own control groups count towards the CLOS in use.
    for (const auto& e : fs::directory_iterator(root))
        if (e.is_directory() && e.path().filename() != "info" && e.path().filename() != "mon_data"
            && e.path().filename() != "mon_groups")
            out.control.push_back(e.path().filename().string());
    static const char* const services[] = { "payments-api", "search-frontend", "batch-analytics", "redis-cache",
        "kafka-broker", "ml-inference", "postgres-primary", "video-transcode" };
    std::string masks;
    for (int i = static_cast<int>(out.control.size()); i < shape.controlGroups; ++i) {
        const std::string name = "tenant-" + std::to_string(100 + i) + "." + services[i % 8];
        const fs::path g = fs::path(root) / name;
        fs::create_directories(g / "mon_groups");
        // Two ways each, walking along the 20-bit mask; MB caps in steps of 10.
        const unsigned bits = 0x3u << (2 * (i % 10));
        char mask[16];
        std::snprintf(mask, sizeof mask, "%x", bits);
        std::string l3 = "L3:", mb = "MB:";
        for (int d = 0; d < shape.domains; ++d) {
            l3 += (d ? ";" : "") + std::to_string(d) + "=" + mask;
            mb += (d ? ";" : "") + std::to_string(d) + "=" + std::to_string(100 - 10 * (i % 9));
        }
        detail::writeFile(g / "schemata", l3 + "\n" + mb + "\n");
        detail::writeFile(g / "mode", "shareable\n");
        detail::writeFile(g / "size", "L3:0=5767168;1=5767168;2=5767168;3=5767168\nMB:0=100;1=100;2=100;3=100\n");
        detail::writeFile(g / "tasks", "");
        detail::writeFile(g / "cpus", "00000000,00000000,00000000,00000000,00000000,00000000\n");
        detail::writeFile(g / "cpus_list", "\n");
        detail::writeCounters(g, shape.domains, static_cast<std::uint64_t>(i) + 1);
        out.control.push_back(name);
    }
    for (int m = 0; m < shape.monitorGroups; ++m) {
        const std::string& parent = out.control[static_cast<std::size_t>(m) % out.control.size()];
        const std::string name = "pod-" + std::string(services[m % 8]) + "-" + std::to_string(7000 + m) + "-replica";
        const fs::path g = fs::path(root) / parent / "mon_groups" / name;
        fs::create_directories(g);
        detail::writeFile(g / "tasks", "");
        detail::writeFile(g / "cpus", "00000000,00000000,00000000,00000000,00000000,00000000\n");
        detail::writeFile(g / "cpus_list", "\n");
        detail::writeCounters(g, shape.domains, 1000u + static_cast<std::uint64_t>(m));
        out.monitor.push_back(parent + "/mon_groups/" + name);
    }
    return out;
}

} // namespace rdt::test
