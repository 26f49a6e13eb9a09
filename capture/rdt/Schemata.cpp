// SPDX-License-Identifier: GPL-3.0-or-later
#include "Schemata.h"
#include "core/Text.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace rdt {

namespace {
/// Text from a file as it may appear in a message: printable ASCII only (a tree copy can hold any bytes, and a
/// newline or escape sequence in a message would forge output), at most 80 characters.
std::string shown(std::string_view text)
{
    std::string out;
    for (char c : text.substr(0, 80))
        out += c >= 0x20 && c < 0x7f ? c : '?';
    return text.size() > 80 ? out + "..." : out;
}
}

bool isCacheResource(std::string_view r)
{
    return r == "L3" || r == "L2" || r == "L3CODE" || r == "L3DATA" || r == "L2CODE" || r == "L2DATA";
}

Result<std::uint64_t> parseMask(std::string_view text)
{
    auto t = trim(text);
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
    if (t.empty()) return makeError("empty mask");
    std::uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 16);
    if (ec != std::errc() || ptr != t.data() + t.size())
        return makeError("Non-hex character in the mask " + shown(t), "masks are hex without 0x, e.g. 7ff");
    return v;
}

Result<std::uint64_t> parseBandwidth(std::string_view text)
{
    auto t = trim(text);
    std::uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 10);
    if (t.empty() || ec != std::errc() || ptr != t.data() + t.size())
        return makeError("Invalid MB value " + shown(t), "bandwidth values are decimal percent (or MiBps)");
    return v;
}

std::string normaliseValue(std::string_view resource, std::string_view text)
{
    const auto t = trim(text);
    char buf[32];
    if (isCacheResource(resource)) {
        if (auto m = parseMask(t)) {
            return hexDigits(*m);
        }
    } else if (auto b = parseBandwidth(t)) {
        std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(*b));
        return buf;
    }
    return std::string(t);
}

namespace {
std::vector<std::string_view> split(std::string_view s, char sep)
{
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (;;) {
        const auto pos = s.find(sep, start);
        out.push_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
        if (pos == std::string_view::npos) break;
        start = pos + 1;
    }
    return out;
}

/// Parses one "NAME:id=val;id=val" line. Returns an error message (empty when fine) and fills `out`.
std::string parseLine(std::string_view raw, SchemataLine& out, bool strict)
{
    const auto line = trim(raw);
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) return "Missing ':' in '" + shown(line) + "'";
    out.resource = std::string(trim(line.substr(0, colon)));
    if (out.resource.empty()) return "Missing resource name in '" + shown(line) + "'";
    for (char c : out.resource)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return "Bad resource name '" + shown(out.resource) + "'"; // the kernel's names: L3, L3CODE, MB, SMBA ...
    const auto rest = trim(line.substr(colon + 1));
    if (rest.empty()) return "Missing '" + out.resource + "' value";
    if (rest == "uninitialized") // pseudo-locksetup mode (KCTRL): no values yet
        return strict ? "'" + out.resource + "' is uninitialized (pseudo-locksetup)" : std::string {};
    for (auto item : split(rest, ';')) {
        item = trim(item);
        if (item.empty()) continue; // trailing ';' as in `echo "L3DATA:2=3c0;"`
        const auto eq = item.find('=');
        int id = -1;
        const auto idText = trim(item.substr(0, eq == std::string_view::npos ? 0 : eq));
        auto [ptr, ec] = std::from_chars(idText.data(), idText.data() + idText.size(), id, 10);
        if (eq == std::string_view::npos || idText.empty() || ec != std::errc() || ptr != idText.data() + idText.size()
            || id < 0)
            return "Missing '=' or non-numeric domain in '" + shown(item) + "'";
        const auto val = trim(item.substr(eq + 1));
        if (val.empty()) return "Missing value for " + out.resource + ":" + std::to_string(id);
        if (out.values.count(id)) return "Duplicate domain " + std::to_string(id);
        // Values are checked in both modes: a line of a tree copy with bytes where a value should be is reported,
        // never carried on as a "value".
        if (isCacheResource(out.resource)) {
            if (auto m = parseMask(val); !m) return m.error().message;
        } else if (auto b = parseBandwidth(val); !b) {
            return b.error().message;
        }
        out.values[id] = normaliseValue(out.resource, val);
    }
    if (out.values.empty() && strict) return "Missing '" + out.resource + "' value";
    return {};
}

Result<Schemata> parseImpl(
    std::string_view text, bool strict, std::vector<SchemataLine>& lines, std::vector<std::string>& warnings)
{
    std::size_t nonEmpty = 0;
    for (auto raw : split(text, '\n')) {
        if (trim(raw).empty()) continue;
        ++nonEmpty;
        SchemataLine line;
        auto msg = parseLine(raw, line, strict);
        if (msg.empty()) {
            auto it = std::find_if(
                lines.begin(), lines.end(), [&](const SchemataLine& l) { return l.resource == line.resource; });
            if (it == lines.end())
                lines.push_back(std::move(line));
            else if (strict)
                return makeError("Duplicate resource " + line.resource, "give each resource one line");
            else
                for (auto& [d, v] : line.values)
                    it->values[d] = v;
            continue;
        }
        if (strict) return makeError(msg, "schemata lines look like L3:0=ff0;1=ff0 or MB:0=50");
        warnings.push_back("ignored schemata line '" + shown(trim(raw)) + "': " + msg);
    }
    if (nonEmpty > 0 && lines.empty() && (strict || !warnings.empty()))
        return makeError("no usable schemata line in '" + shown(trim(text)) + "'",
            warnings.empty() ? std::string {} : warnings.front());
    return Schemata {};
}
}

Result<Schemata> Schemata::parse(std::string_view text)
{
    Schemata s;
    auto r = parseImpl(text, false, s.m_lines, s.m_warnings);
    if (!r) return r.error();
    return s;
}

Result<Schemata> Schemata::parseStrict(std::string_view text)
{
    Schemata s;
    auto r = parseImpl(text, true, s.m_lines, s.m_warnings);
    if (!r) return r.error();
    if (s.m_lines.empty()) return makeError("empty schemata", "give at least one line such as L3:0=ff0");
    return s;
}

const SchemataLine* Schemata::line(const std::string& resource) const
{
    for (const auto& l : m_lines)
        if (l.resource == resource) return &l;
    return nullptr;
}

std::optional<std::string> Schemata::value(const std::string& resource, int domain) const
{
    if (const auto* l = line(resource)) {
        auto it = l->values.find(domain);
        if (it != l->values.end()) return it->second;
    }
    return std::nullopt;
}

void Schemata::set(const std::string& resource, int domain, const std::string& value)
{
    for (auto& l : m_lines) {
        if (l.resource == resource) {
            l.values[domain] = value;
            return;
        }
    }
    m_lines.push_back(SchemataLine { resource, { { domain, value } } });
}

std::string Schemata::formatLine(const std::string& resource) const
{
    const auto* l = line(resource);
    if (!l) return {};
    std::string s = l->resource + ":";
    bool first = true;
    for (const auto& [d, v] : l->values) {
        if (!first) s += ';';
        first = false;
        s += std::to_string(d) + "=" + v;
    }
    return s + "\n";
}

std::string Schemata::format() const
{
    std::string s;
    for (const auto& l : m_lines)
        s += formatLine(l.resource);
    return s;
}

std::string Schemata::formatValue(const std::string& resource, int domain, const std::string& value)
{
    return resource + ":" + std::to_string(domain) + "=" + value + "\n";
}

bool Schemata::operator==(const Schemata& o) const
{
    if (m_lines.size() != o.m_lines.size()) return false;
    for (const auto& l : m_lines) {
        const auto* other = o.line(l.resource);
        if (!other || other->values != l.values) return false;
    }
    return true;
}

} // namespace rdt
