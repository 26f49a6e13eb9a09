// SPDX-License-Identifier: GPL-3.0-or-later
// The small file formats of the newer resctrl info files (kernel Documentation/filesystems/resctrl.rst): per-domain
// value lists, BMEC transaction bits, counter assignment modes and per-group counter assignments.
#include "ResctrlFeatures.h"
#include "core/Text.h"

#include <array>
#include <charconv>

namespace rdt {

namespace {
// Bit n of a BMEC configuration = kTransactions[n] (resctrl.rst "mbm_total_bytes_config" and "event_configs").
constexpr std::array<const char*, 7> kTransactions = { "local_reads", "remote_reads", "local_non_temporal_writes",
    "remote_non_temporal_writes", "local_reads_slow_memory", "remote_reads_slow_memory", "dirty_victim_writes_all" };

std::string compact(std::string_view s)
{
    std::string out;
    for (char c : s)
        if (!isAsciiSpace(c)) out += c;
    return out;
}

template <typename F> void forEachItem(std::string_view text, char sep, F&& f)
{
    while (!text.empty()) {
        const auto at = text.find(sep);
        const auto item = text.substr(0, at);
        if (!item.empty()) f(item);
        if (at == std::string_view::npos) break;
        text.remove_prefix(at + 1);
    }
}
}

Result<std::vector<DomainValue>> parseDomainValues(std::string_view text, int base)
{
    const std::string t = compact(text);
    std::vector<DomainValue> out;
    std::string bad;
    forEachItem(t, ';', [&](std::string_view item) {
        const auto eq = item.find('=');
        DomainValue dv;
        std::string_view value = eq == std::string_view::npos ? std::string_view {} : item.substr(eq + 1);
        int valueBase = base;
        if (value.starts_with("0x") || value.starts_with("0X")) {
            value.remove_prefix(2); // BMEC configurations are printed as 0x%02x
            valueBase = 16;
        }
        auto [p1, e1] = std::from_chars(item.data(), item.data() + (eq == std::string_view::npos ? 0 : eq), dv.domain);
        auto [p2, e2] = std::from_chars(value.data(), value.data() + value.size(), dv.value, valueBase);
        if (eq == std::string_view::npos || e1 != std::errc() || e2 != std::errc() || p2 != value.data() + value.size()
            || dv.domain < 0) {
            if (bad.empty()) bad = std::string(item);
            return;
        }
        out.push_back(dv);
    });
    if (!bad.empty()) return makeError("cannot read '" + bad + "' as <domain>=<value>", "expected e.g. 0=32;1=32");
    return out;
}

std::uint64_t valueOfDomain(const std::vector<DomainValue>& values, int domain, std::uint64_t fallback)
{
    for (const auto& v : values)
        if (v.domain == domain) return v.value;
    return fallback;
}

std::vector<std::string> bmecTransactionNames(std::uint64_t mask)
{
    std::vector<std::string> out;
    for (std::size_t bit = 0; bit < kTransactions.size(); ++bit)
        if (mask & (1ull << bit)) out.emplace_back(kTransactions[bit]);
    return out;
}

Result<std::uint64_t> bmecMaskFromNames(std::string_view names)
{
    const std::string t = compact(names);
    std::uint64_t mask = 0;
    std::string unknown;
    forEachItem(t, ',', [&](std::string_view n) {
        for (std::size_t bit = 0; bit < kTransactions.size(); ++bit) {
            if (n == kTransactions[bit]) {
                mask |= 1ull << bit;
                return;
            }
        }
        unknown += (unknown.empty() ? "" : ", ") + std::string(n);
    });
    if (!unknown.empty()) {
        std::string known;
        for (const char* k : kTransactions)
            known += (known.empty() ? "" : ", ") + std::string(k);
        return makeError("unknown memory transaction type: " + unknown, "known: " + known);
    }
    return mask;
}

AssignModes parseAssignModes(std::string_view text)
{
    AssignModes out;
    forEachItem(text, '\n', [&](std::string_view line) {
        forEachItem(line, ' ', [&](std::string_view item) {
            auto t = trim(item);
            if (t.empty()) return;
            if (t.size() > 2 && t.front() == '[' && t.back() == ']') {
                t = t.substr(1, t.size() - 2);
                out.active = std::string(t);
            }
            out.all.emplace_back(t);
        });
    });
    return out;
}

bool CounterAssignment::assigned(int domain) const
{
    for (const auto& [d, state] : domains)
        if (d == domain) return state != '_';
    return false;
}

Result<std::vector<CounterAssignment>> parseCounterAssignments(std::string_view text)
{
    std::vector<CounterAssignment> out;
    std::string bad;
    forEachItem(text, '\n', [&](std::string_view raw) {
        const std::string line = compact(raw);
        if (line.empty()) return;
        const auto colon = line.find(':');
        if (colon == std::string::npos || colon == 0) {
            if (bad.empty()) bad = line;
            return;
        }
        CounterAssignment a;
        a.event = line.substr(0, colon);
        forEachItem(std::string_view(line).substr(colon + 1), ';', [&](std::string_view item) {
            const auto eq = item.find('=');
            int d = -1;
            auto [p, ec] = std::from_chars(item.data(), item.data() + (eq == std::string_view::npos ? 0 : eq), d);
            if (eq == std::string_view::npos || ec != std::errc() || d < 0 || item.size() != eq + 2) {
                if (bad.empty()) bad = std::string(item);
                return;
            }
            a.domains.emplace_back(d, item[eq + 1]);
        });
        out.push_back(std::move(a));
    });
    if (!bad.empty())
        return makeError("cannot read '" + bad + "' in mbm_L3_assignments", "expected e.g. mbm_total_bytes:0=e;1=_");
    return out;
}

std::string formatAssignmentCommand(const std::string& event, int domain, bool assign)
{
    return event + ":" + (domain < 0 ? std::string("*") : std::to_string(domain)) + "=" + (assign ? "e" : "_");
}

std::optional<int> idAfterPrefix(std::string_view name, std::string_view prefix)
{
    if (!name.starts_with(prefix) || name.size() == prefix.size()) return std::nullopt;
    int id = -1;
    auto [p, ec] = std::from_chars(name.data() + prefix.size(), name.data() + name.size(), id);
    if (ec != std::errc() || p != name.data() + name.size() || id < 0) return std::nullopt;
    return id;
}

} // namespace rdt
