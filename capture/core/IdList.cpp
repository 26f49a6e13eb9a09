// SPDX-License-Identifier: GPL-3.0-or-later
#include "IdList.h"
#include "core/Text.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fstream>
#include <iterator>
#include <utility>

namespace rdt {

namespace {

/// Splits on `sep` without dropping empty pieces.
std::vector<std::string_view> split(std::string_view s, char sep)
{
    std::vector<std::string_view> out;
    for (;;) {
        const auto pos = s.find(sep);
        out.push_back(s.substr(0, pos));
        if (pos == std::string_view::npos) return out;
        s.remove_prefix(pos + 1);
    }
}

enum class NumberStatus { Ok, NotANumber, TooLarge };

NumberStatus parseNumber(std::string_view t, std::uint64_t& out, int base = 10)
{
    if (t.empty()) return NumberStatus::NotANumber;
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), out, base);
    if (ec == std::errc::result_out_of_range) return NumberStatus::TooLarge;
    if (ec != std::errc() || ptr != t.data() + t.size()) return NumberStatus::NotANumber;
    return NumberStatus::Ok;
}

std::string quoted(std::string_view text)
{
    constexpr std::size_t kShown = 80; // hostile input can be long: quote its start only
    std::string s(text.substr(0, kShown));
    for (auto& c : s)
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    return "'" + s + (text.size() > kShown ? "...'" : "'");
}

Error outOfRange(const IdBound& bound, std::uint64_t id)
{
    return errnoError(ERANGE, bound.what + " " + std::to_string(id) + " is out of range", bound.why);
}

Error tooLarge(const IdBound& bound, std::string_view number)
{
    return errnoError(ERANGE, bound.what + " " + quoted(number) + " is too large", bound.why);
}

/// Merged, sorted [lo, hi] ranges -> the ids.
std::vector<unsigned> expand(std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges)
{
    std::sort(ranges.begin(), ranges.end());
    std::vector<unsigned> ids;
    std::uint64_t next = 0; // first id not yet emitted
    bool any = false;
    for (const auto& [lo, hi] : ranges) {
        for (std::uint64_t id = any ? std::max(lo, next) : lo; id <= hi; ++id)
            ids.push_back(static_cast<unsigned>(id));
        if (!any || hi + 1 > next) next = hi + 1;
        any = true;
    }
    return ids;
}

} // namespace

IdBound cpuBound(std::uint64_t count, const std::string& who)
{
    IdBound b;
    b.what = "CPU";
    b.end = count;
    b.why = count == 0 ? who + " has no CPUs" : who + " has CPUs 0-" + std::to_string(count - 1);
    return b;
}

IdBound kernelCpuBound()
{
    return { "CPU", kCpuIdCeiling, "CPU ids are below " + std::to_string(kCpuIdCeiling) };
}

IdBound kernelPidBound()
{
    return { "PID", kPidCeiling, "PIDs are below " + std::to_string(kPidCeiling) + " (PID_MAX_LIMIT)" };
}

std::uint64_t systemPidMax()
{
    static const std::uint64_t value = [] {
        std::ifstream in("/proc/sys/kernel/pid_max");
        std::uint64_t v = 0;
        if (in >> v && v > 0 && v <= kPidCeiling) return v;
        return kPidCeiling;
    }();
    return value;
}

IdBound pidBound()
{
    const auto max = systemPidMax();
    return { "PID", max, "PIDs are below pid_max (" + std::to_string(max) + ", /proc/sys/kernel/pid_max)" };
}

Result<std::vector<unsigned>> parseIdList(std::string_view text, const IdBound& bound)
{
    const auto t = trim(text);
    if (t.empty()) return std::vector<unsigned> {};
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
    const std::string advice = "lists look like 0-3,8,10-11";
    for (auto raw : split(t, ',')) {
        const auto item = trim(raw);
        if (item.empty()) return errnoError(EINVAL, "empty item in " + bound.what + " list " + quoted(t), advice);
        if (item.find_first_of(":/") != std::string_view::npos)
            return errnoError(EINVAL, "strided range " + quoted(item) + " in " + bound.what + " list is not supported",
                "list the ids or plain ranges, e.g. 0-3,8");
        const auto dash = item.find('-');
        const auto loText = trim(item.substr(0, dash));
        const auto hiText = dash == std::string_view::npos ? loText : trim(item.substr(dash + 1));
        std::uint64_t lo = 0, hi = 0;
        for (auto [part, value] : { std::pair { loText, &lo }, std::pair { hiText, &hi } }) {
            switch (parseNumber(part, *value)) {
            case NumberStatus::Ok:
                break;
            case NumberStatus::TooLarge:
                return tooLarge(bound, part);
            case NumberStatus::NotANumber:
                return errnoError(EINVAL,
                    "bad " + std::string(dash == std::string_view::npos ? "number " : "range ") + quoted(item) + " in "
                        + bound.what + " list " + quoted(t),
                    dash == std::string_view::npos ? advice : "ranges look like 0-3 (low-high)");
            }
        }
        if (hi < lo)
            return errnoError(EINVAL, "reversed range " + quoted(item) + " in " + bound.what + " list",
                "ranges look like 0-3 (low-high)");
        if (lo >= bound.end) return outOfRange(bound, lo);
        if (hi >= bound.end) return outOfRange(bound, hi);
        ranges.emplace_back(lo, hi);
    }
    return expand(std::move(ranges));
}

std::string formatIdList(std::vector<unsigned> ids)
{
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

Result<std::vector<unsigned>> parseCpuMask(std::string_view text, const IdBound& bound)
{
    const auto t = trim(text);
    std::vector<unsigned> ids;
    if (t.empty()) return ids;
    const auto words = split(t, ',');
    // Words are most significant first: the last word holds ids 0-31.
    for (std::size_t w = 0; w < words.size(); ++w) {
        const auto word = trim(words[w]);
        std::uint64_t value = 0;
        if (word.size() > 8 || parseNumber(word, value, 16) != NumberStatus::Ok)
            return errnoError(EINVAL, "bad " + bound.what + " mask " + quoted(t),
                "masks are 32-bit hex words, most significant first, e.g. ffff,e98a2f85");
        if (value == 0) continue;
        const std::uint64_t base = static_cast<std::uint64_t>(words.size() - 1 - w) * 32;
        for (unsigned bit = 0; bit < 32; ++bit) {
            if (!(value & (1ull << bit))) continue;
            if (base + bit >= bound.end) return outOfRange(bound, base + bit);
            ids.push_back(static_cast<unsigned>(base + bit));
        }
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

Result<std::vector<unsigned>> parseTaskList(std::string_view text, const IdBound& bound)
{
    std::vector<unsigned> ids;
    for (auto raw : split(text, '\n')) {
        const auto line = trim(raw);
        if (line.empty()) continue;
        std::uint64_t id = 0;
        switch (parseNumber(line, id)) {
        case NumberStatus::Ok:
            break;
        case NumberStatus::TooLarge:
            return tooLarge(bound, line);
        case NumberStatus::NotANumber:
            return errnoError(EINVAL, "bad " + bound.what + " " + quoted(line), "one number per line");
        }
        if (id >= bound.end) return outOfRange(bound, id);
        ids.push_back(static_cast<unsigned>(id));
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

std::vector<unsigned> missingIds(const std::vector<unsigned>& wanted, const std::vector<unsigned>& available)
{
    std::vector<unsigned> out;
    std::set_difference(wanted.begin(), wanted.end(), available.begin(), available.end(), std::back_inserter(out));
    return out;
}

std::string idExamples(const std::vector<unsigned>& ids, std::size_t shown)
{
    std::string s;
    for (std::size_t i = 0; i < ids.size() && i < shown; ++i)
        s += (i ? ", " : "") + std::to_string(ids[i]);
    if (ids.size() > shown) s += " and " + std::to_string(ids.size() - shown) + " more";
    return s;
}

} // namespace rdt
