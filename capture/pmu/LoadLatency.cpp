// SPDX-License-Identifier: GPL-3.0-or-later
#include "LoadLatency.h"
#include "core/Text.h"

#include "Symbolizer.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <map>
#include <tuple>

namespace rdt::pmu {

namespace {
std::uint64_t nextRandom(std::uint64_t& s)
{
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
}
} // namespace

void LatencyStats::add(std::uint32_t latency, MemLevel level, bool isHitm, bool isRemote, std::uint64_t& rng)
{
    ++count;
    sum += latency;
    hitm += isHitm ? 1u : 0u;
    remote += isRemote ? 1u : 0u;
    max = std::max(max, latency);
    ++byLevel[static_cast<std::size_t>(level)];
    ++seen;
    if (reservoir.size() < LoadLatency::kReservoir) {
        reservoir.push_back(latency);
    } else { // Algorithm R: keep each of the `seen` values with equal probability
        const std::uint64_t j = nextRandom(rng) % seen;
        if (j < LoadLatency::kReservoir) reservoir[j] = latency;
    }
}

void LatencyStats::merge(const LatencyStats& o)
{
    count += o.count;
    sum += o.sum;
    hitm += o.hitm;
    remote += o.remote;
    max = std::max(max, o.max);
    for (std::size_t i = 0; i < byLevel.size(); ++i)
        byLevel[i] += o.byLevel[i];
    seen += o.seen;
    // Merged reservoirs stay exact while small; beyond that they over-represent small rows, which is acceptable
    // for a top-N table (documented in the header).
    reservoir.insert(reservoir.end(), o.reservoir.begin(), o.reservoir.end());
}

std::uint32_t LatencyStats::percentile(double q) const
{
    if (reservoir.empty()) return 0;
    std::vector<std::uint32_t> v = reservoir;
    const auto rank = static_cast<std::size_t>(std::max(0.0, q * static_cast<double>(v.size()) - 1e-9));
    const std::size_t k = std::min(rank, v.size() - 1);
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

MemLevel LatencyStats::dominantLevel() const
{
    const auto it = std::max_element(byLevel.begin(), byLevel.end());
    return *it ? static_cast<MemLevel>(it - byLevel.begin()) : MemLevel::Unknown;
}

std::size_t LoadLatency::bucketOf(std::uint64_t latency)
{
    if (latency < 2) return 0;
    const auto b = static_cast<std::size_t>(std::bit_width(latency) - 1);
    return std::min(b, LoadLatencyReport::kBuckets - 1);
}

void LoadLatency::clear()
{
    m_hist = {};
    m_byIp.clear();
    m_byLine.clear();
    m_total = {};
    m_regions = {};
    m_anyCache = 0;
}

void LoadLatency::add(const Sample& s)
{
    const std::uint64_t lat64 = s.latency();
    const auto lat = static_cast<std::uint32_t>(std::min<std::uint64_t>(lat64, UINT32_MAX));
    const DataSource ds = DataSource::decode(s.dataSrc);
    const MemLevel level = ds.level();
    const bool hitm = ds.hitm();
    const bool remote = level == MemLevel::RemoteDram || level == MemLevel::RemoteCache || ds.remote;
    ++m_hist[bucketOf(lat)][static_cast<std::size_t>(level)];
    ++m_regions[ds.region];
    m_anyCache += ds.lvlNum == DataSource::LvlNumAnyCache ? 1u : 0u;
    m_total.add(lat, level, hitm, remote, m_rng);
    m_byIp[IpKey { s.pid, s.ip }].add(lat, level, hitm, remote, m_rng);
    if (s.has(perf::SampleAddr) && s.addr != 0) {
        auto& line = m_byLine.findOrInsert(IpKey { s.pid, s.addr & ~std::uint64_t { 63 } });
        if (line.full) {
            line.full->add(lat, level, hitm, remote, m_rng);
        } else if (line.n < LineStats::kInline) {
            if (line.n == 0) line.hotIp = s.ip;
            line.latency[line.n] = lat;
            line.level[line.n] = static_cast<std::uint8_t>(level);
            line.flags[line.n] = static_cast<std::uint8_t>((hitm ? 1u : 0u) | (remote ? 2u : 0u));
            ++line.n;
        } else {
            line.full = std::make_unique<LatencyStats>(line.stats());
            line.full->add(lat, level, hitm, remote, m_rng);
        }
    }
}

LoadLatency::LineStats& LoadLatency::LineTable::findOrInsert(const IpKey& key)
{
    if ((m_size + 1) * 2 > m_keys.size()) grow();
    const std::size_t mask = m_keys.size() - 1;
    for (std::size_t i = IpHash()(key) & mask;; i = (i + 1) & mask) {
        if (!m_used[i]) {
            m_used[i] = 1;
            m_keys[i] = key;
            ++m_size;
            return m_values[i];
        }
        if (m_keys[i] == key) return m_values[i];
    }
}

void LoadLatency::LineTable::grow()
{
    const std::size_t cap = m_keys.empty() ? 1024 : m_keys.size() * 2;
    std::vector<IpKey> keys(cap);
    std::vector<LineStats> values(cap);
    std::vector<std::uint8_t> used(cap, 0);
    for (std::size_t i = 0; i < m_keys.size(); ++i) {
        if (!m_used[i]) continue;
        for (std::size_t j = IpHash()(m_keys[i]) & (cap - 1);; j = (j + 1) & (cap - 1))
            if (!used[j]) {
                used[j] = 1;
                keys[j] = m_keys[i];
                values[j] = std::move(m_values[i]);
                break;
            }
    }
    m_keys = std::move(keys);
    m_values = std::move(values);
    m_used = std::move(used);
}

void LoadLatency::LineTable::clear()
{
    m_keys.clear();
    m_values.clear();
    m_used.clear();
    m_size = 0;
}

LatencyStats LoadLatency::LineStats::stats() const
{
    if (full) return *full;
    LatencyStats st;
    std::uint64_t rng = 1; // fewer than kReservoir values: the reservoir never samples
    for (std::size_t i = 0; i < n; ++i)
        st.add(latency[i], static_cast<MemLevel>(level[i]), (flags[i] & 1u) != 0, (flags[i] & 2u) != 0, rng);
    return st;
}

LoadLatencyReport LoadLatency::report(Symbolizer& symbols, std::size_t topN) const
{
    LoadLatencyReport r;
    r.histogram = m_hist;
    r.total = m_total;
    r.byRegion = m_regions;
    r.anyCache = m_anyCache;
    std::map<std::string, LatencyRow> fns;
    for (const auto& [key, st] : m_byIp) {
        const SymbolInfo& si = symbols.resolve(key.pid, key.ip);
        auto& row = fns[si.function];
        if (row.key.empty()) {
            row.key = si.function;
            row.function = si.function;
            row.module = si.module;
        }
        row.stats.merge(st);
    }
    auto byWeight = [](const LatencyRow& a, const LatencyRow& b) {
        return a.stats.sum != b.stats.sum ? a.stats.sum > b.stats.sum : a.key < b.key;
    };
    for (auto& [k, row] : fns)
        r.functions.push_back(std::move(row));
    std::sort(r.functions.begin(), r.functions.end(), byWeight);
    if (r.functions.size() > topN) r.functions.resize(topN);
    std::vector<std::tuple<std::uint64_t, IpKey, const LineStats*>> lines; // (total latency, line, stats)
    lines.reserve(m_byLine.size());
    m_byLine.forEach([&](const IpKey& key, const LineStats& ls) {
        std::uint64_t sum = 0;
        if (ls.full)
            sum = ls.full->sum;
        else
            for (std::size_t i = 0; i < ls.n; ++i)
                sum += ls.latency[i];
        lines.emplace_back(sum, key, &ls);
    });
    const std::size_t n = std::min(topN, lines.size());
    std::partial_sort(
        lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(n), lines.end(), [](const auto& a, const auto& b) {
            return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) > std::get<0>(b)
                                                    : std::get<1>(a).ip < std::get<1>(b).ip;
        });
    for (std::size_t i = 0; i < n; ++i) {
        LatencyRow row;
        const auto& [sum, key, ls] = lines[i];
        row.key = formatHex(key.ip);
        const SymbolInfo& si = symbols.resolve(key.pid, ls->hotIp);
        row.function = si.function;
        row.module = si.module;
        row.stats = ls->stats();
        r.lines.push_back(std::move(row));
    }
    return r;
}

} // namespace rdt::pmu
