// SPDX-License-Identifier: GPL-3.0-or-later
#include "IdList.h"

#include "Schemata.h"

#include <algorithm>
#include <charconv>

namespace rdt {

namespace {
bool parseUnsigned(std::string_view t, unsigned& out, int base = 10)
{
    t = trim(t);
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), out, base);
    return !t.empty() && ec == std::errc() && ptr == t.data() + t.size();
}
}

Result<std::vector<unsigned>> parseIdList(std::string_view text)
{
    std::vector<unsigned> ids;
    const auto t = trim(text);
    std::size_t start = 0;
    while (start <= t.size() && !t.empty()) {
        auto comma = t.find(',', start);
        auto item = trim(t.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (!item.empty()) {
            const auto dash = item.find('-');
            unsigned a = 0, b = 0;
            if (dash == std::string_view::npos) {
                if (!parseUnsigned(item, a))
                    return makeError("bad number '" + std::string(item) + "' in list '" + std::string(t) + "'",
                        "lists look like 0-3,8,10");
                b = a;
            } else if (!parseUnsigned(item.substr(0, dash), a) || !parseUnsigned(item.substr(dash + 1), b) || b < a) {
                return makeError("bad range '" + std::string(item) + "' in list '" + std::string(t) + "'",
                    "ranges look like 0-3 (low-high)");
            }
            if (b - a > 1u << 22) return makeError("range '" + std::string(item) + "' is too large");
            for (unsigned i = a; i <= b; ++i)
                ids.push_back(i);
        }
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

std::string formatIdList(const std::vector<unsigned>& input)
{
    auto ids = input;
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::string s;
    for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
            ++j;
        if (!s.empty()) s += ',';
        s += std::to_string(ids[i]);
        if (j > i) s += "-" + std::to_string(ids[j]);
        i = j + 1;
    }
    return s;
}

Result<std::vector<unsigned>> parseCpuMask(std::string_view text)
{
    const auto t = trim(text);
    std::vector<std::string_view> words;
    std::size_t start = 0;
    for (;;) {
        auto comma = t.find(',', start);
        words.push_back(t.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    std::vector<unsigned> cpus;
    if (t.empty()) return cpus;
    // Words are most significant first: the last word holds CPUs 0-31.
    for (std::size_t w = 0; w < words.size(); ++w) {
        unsigned value = 0;
        if (!parseUnsigned(words[w], value, 16))
            return makeError("bad CPU mask '" + std::string(t) + "'", "masks look like ffff,e98a2f85");
        const auto base = static_cast<unsigned>((words.size() - 1 - w) * 32);
        for (unsigned bit = 0; bit < 32; ++bit)
            if (value & (1u << bit)) cpus.push_back(base + bit);
    }
    std::sort(cpus.begin(), cpus.end());
    return cpus;
}

Result<std::vector<unsigned>> parseTaskList(std::string_view text)
{
    std::vector<unsigned> pids;
    std::size_t start = 0;
    while (start < text.size()) {
        auto nl = text.find('\n', start);
        auto line = trim(text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
        if (!line.empty()) {
            unsigned pid = 0;
            if (!parseUnsigned(line, pid)) return makeError("bad task id '" + std::string(line) + "'");
            pids.push_back(pid);
        }
        if (nl == std::string_view::npos) break;
        start = nl + 1;
    }
    return pids;
}

} // namespace rdt
