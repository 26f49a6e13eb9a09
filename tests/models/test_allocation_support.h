// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Test support: an in-test backend that behaves like the kernel's schemata writer for the rules the editors
// need (docs/RESCTRL.md "Status texts": trailing newline required, hex masks, "Mask out of range", "The mask %lx has
// non-consecutive 1-bits", "Need at least %d bits in the mask", "Overlaps with exclusive group", MB range check
// and round-up to bandwidth_gran, last_cmd_status). It parses the schemata TEXT it is given, independently of
// the model's own validator, so a model bug cannot hide behind a shared helper.
// The end-to-end path (rdt engine + SimResctrlFs) is tested in tests/views/test_heatmap_sim.cpp; this fake keeps
// the model and widget tests fast and lets them inject rejections the engine would catch first.

#include "models/AllocationState.h"

#include <bit>
#include <cerrno>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

class KernelLikeSchemata : public AllocationWriter {
public:
    struct Group {
        bool exclusive = false;
        std::map<std::string, std::map<int, std::uint64_t>> values; // schema -> domain -> value
    };
    std::map<std::string, Group> groups;
    std::vector<CacheSchema> caches;
    BandwidthSchema mb;
    std::string lastCmdStatus = "ok\n";
    std::vector<std::string> writes; ///< every schemata text written, in order
    int forceRejections = 0; ///< the next N writes fail with forcedMessage (e.g. a pseudo-locked region)
    std::string forcedMessage = "CBM overlaps with pseudo-locked region";

    /// The kernel's write(2) on <group>/schemata: 0 or -errno, with last_cmd_status set.
    int writeSchemata(const std::string& group, const std::string& text)
    {
        writes.push_back(text);
        lastCmdStatus.clear();
        if (forceRejections > 0) {
            --forceRejections;
            return fail(forcedMessage);
        }
        if (text.empty() || text.back() != '\n') return -EINVAL; // silent: status stays empty ("ok")
        const std::string line = text.substr(0, text.size() - 1);
        const auto colon = line.find(':');
        if (colon == std::string::npos) return fail("Missing ':'");
        const std::string name = line.substr(0, colon);
        const auto eq = line.find('=', colon);
        if (eq == std::string::npos) return fail("Missing '=' or non-numeric domain");
        const int domain = std::stoi(line.substr(colon + 1, eq - colon - 1));
        const std::string value = line.substr(eq + 1);
        auto& g = groups[group];
        if (name == mb.name) {
            const unsigned long v = std::stoul(value);
            if (v < mb.minValue || v > mb.maxValue)
                return fail("MB value " + value + " out of range [" + std::to_string(mb.minValue) + ","
                    + std::to_string(mb.maxValue) + "]");
            g.values[name][domain] = (v + mb.granularity - 1) / mb.granularity * mb.granularity;
            lastCmdStatus = "ok\n";
            return 0;
        }
        const CacheSchema* s = nullptr;
        for (const auto& c : caches)
            s = c.name == name ? &c : s;
        if (!s) return fail("Unknown or unsupported resource name '" + name + "'");
        if (value.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
            return fail("Non-hex character in the mask " + value);
        const std::uint64_t m = std::stoull(value, nullptr, 16);
        if (m == 0 || m > s->fullMask()) return fail("Mask out of range");
        const std::uint64_t low = m & (~m + 1); // lowest set bit
        if (!s->sparseMasks && ((m + low) & m) != 0) {
            char buf[80];
            std::snprintf(
                buf, sizeof buf, "The mask %llx has non-consecutive 1-bits", static_cast<unsigned long long>(m));
            return fail(buf);
        }
        if (std::popcount(m) < s->minCbmBits)
            return fail("Need at least " + std::to_string(s->minCbmBits) + " bits in the mask");
        for (const auto& [other, og] : groups) {
            if (other == group || !og.exclusive) continue;
            for (const auto& [oname, od] : og.values) {
                const auto it = od.find(domain);
                if (oname != mb.name && it != od.end() && (it->second & m))
                    return fail("Overlaps with exclusive group");
            }
        }
        g.values[name][domain] = m;
        lastCmdStatus = "ok\n";
        return 0;
    }

    rdt::Result<std::uint64_t> writeCbm(
        const std::string& group, const std::string& schema, int domain, std::uint64_t mask) override
    {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s:%d=%llx\n", schema.c_str(), domain, static_cast<unsigned long long>(mask));
        return finish(group, schema, domain, writeSchemata(group, buf));
    }

    rdt::Result<unsigned> writeBandwidth(
        const std::string& group, const std::string& schema, int domain, unsigned value) override
    {
        auto r = finish(group, schema, domain,
            writeSchemata(group, schema + ":" + std::to_string(domain) + "=" + std::to_string(value) + "\n"));
        if (!r) return r.error();
        return static_cast<unsigned>(*r);
    }

    rdt::Result<std::vector<unsigned>> writeBandwidths(
        const std::string& group, int domain, const std::vector<std::pair<std::string, unsigned>>& values) override
    {
        std::vector<unsigned> held;
        for (const auto& [schema, v] : values) {
            auto r = writeBandwidth(group, schema, domain, v);
            if (!r) return r.error();
            held.push_back(*r);
        }
        return held;
    }

    std::uint64_t value(const std::string& group, const std::string& schema, int domain) const
    {
        return groups.at(group).values.at(schema).at(domain);
    }

private:
    int fail(const std::string& message)
    {
        lastCmdStatus = message + "\n";
        return -EINVAL;
    }

    rdt::Result<std::uint64_t> finish(const std::string& group, const std::string& schema, int domain, int rc)
    {
        if (rc != 0) {
            std::string why = lastCmdStatus.empty() ? std::string("invalid argument") : lastCmdStatus;
            while (!why.empty() && why.back() == '\n')
                why.pop_back();
            return rdt::errnoError(-rc, why);
        }
        return value(group, schema, domain);
    }
};

/// A Skylake-SP-like L3 (SDM 20.19.4 example values): 11-bit CBM (0x7ff), shareable 0x600, 24.75 MiB, 11 ways,
/// two domains; groups "", p0, p1 (p1 exclusive when asked); MB linear 10..100 step 10.
inline AllocationState makeSkxState(bool cdp = false, bool sparse = false, int minBits = 1, bool p1Exclusive = false)
{
    AllocationState st;
    const std::vector<std::string> names
        = cdp ? std::vector<std::string> { "L3CODE", "L3DATA" } : std::vector<std::string> { "L3" };
    for (const auto& n : names) {
        CacheSchema c;
        c.name = n;
        c.cbmLength = 11;
        c.shareableBits = 0x600;
        c.minCbmBits = minBits;
        c.sparseMasks = sparse;
        c.cacheBytes = 11ull * 2304 * 1024; // 24.75 MiB
        c.ways = 11;
        st.caches.push_back(c);
    }
    st.bandwidths.push_back(BandwidthSchema {});
    st.domains = { 0, 1 };
    const struct {
        const char* name;
        std::uint64_t mask;
        std::uint64_t occ;
    } groups[] = { { "", 0x7ff, 4u << 20 }, { "p0", 0x00f, 9u << 20 }, { "p1", 0x0f0, 1u << 20 } };
    int closid = 0;
    for (const auto& g : groups) {
        GroupAllocation a;
        a.group = g.name;
        a.closid = closid++;
        a.exclusive = p1Exclusive && a.group == "p1";
        for (const auto& n : names) {
            for (int d : st.domains)
                a.cbm[n][d] = a.exclusive || a.group != "" ? g.mask : (p1Exclusive ? 0x70f : g.mask);
        }
        for (int d : st.domains) {
            a.bandwidth["MB"][d] = 100;
            a.occupancyBytes[d] = g.occ + static_cast<std::uint64_t>(d) * (1u << 20);
        }
        st.groups.push_back(a);
    }
    st.writable = true;
    st.simulated = true;
    return st;
}

/// The same picture loaded into the fake kernel.
inline void loadInto(KernelLikeSchemata& k, const AllocationState& st)
{
    k.caches = st.caches;
    k.mb = st.bandwidths.front();
    k.groups.clear();
    for (const auto& g : st.groups) {
        auto& kg = k.groups[g.group];
        kg.exclusive = g.exclusive;
        for (const auto& [s, d] : g.cbm)
            kg.values[s] = d;
        for (const auto& [s, d] : g.bandwidth) {
            for (const auto& [id, v] : d)
                kg.values[s][id] = v;
        }
    }
}
