// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "core/Text.h" // trim(), which schemata parsing and its callers use

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdt {

/// One schemata line: a resource ("L3", "L3CODE", "L2DATA", "MB", "SMBA", ...) and a value per domain id.
/// Values are kept as normalised text: cache masks as lower-case hex without padding ("7ff"), bandwidth
/// values as decimal ("100"). Domain ids are cache ids, which can have gaps (0, 2, 3): a map keeps them.
struct SchemataLine {
    std::string resource;
    std::map<int, std::string> values;
};

/// The parsed content of a resctrl `schemata` file (resource -> domain -> value). Parsing is tolerant of what
/// real kernels write (docs/RESCTRL.md "Group files"): names right-aligned with spaces (`    L3:0=00fff`),
/// padded values (`MB:0=  100`), gaps in domain ids, a trailing `;`, CDP names, blank lines, and
/// `L3:uninitialized` (pseudo-locksetup). Lines it cannot understand are reported in warnings(), never silently
/// dropped.
class Schemata {
public:
    /// Parses a whole schemata file (or user input with one line per resource). Fails only when nothing
    /// usable is found in non-empty input; partial problems become warnings.
    static Result<Schemata> parse(std::string_view text);
    /// Parses user input where ';' may also separate resources on one line is NOT allowed: each line is one
    /// resource, as the kernel expects. Every problem is an error (used for `alloc set` and `--at`).
    static Result<Schemata> parseStrict(std::string_view text);

    /// "L3:0=7ff;1=7ff\nMB:0=100;1=100\n" (every line ends with a newline, as the kernel requires).
    std::string format() const;
    /// One resource's line with its trailing newline, or "" when absent.
    std::string formatLine(const std::string& resource) const;
    /// "L3:1=f0\n": one domain of one resource (a partial write, which the kernel accepts).
    static std::string formatValue(const std::string& resource, int domain, const std::string& value);

    const std::vector<SchemataLine>& lines() const { return m_lines; }
    const std::vector<std::string>& warnings() const { return m_warnings; }
    bool empty() const { return m_lines.empty(); }
    bool has(const std::string& resource) const { return line(resource) != nullptr; }
    const SchemataLine* line(const std::string& resource) const;
    std::optional<std::string> value(const std::string& resource, int domain) const;
    /// Sets (or adds) one value; keeps resource order stable (first seen first).
    void set(const std::string& resource, int domain, const std::string& value);

    bool operator==(const Schemata& o) const;

private:
    std::vector<SchemataLine> m_lines;
    std::vector<std::string> m_warnings;
};

/// True for cache resources whose values are capacity bitmasks (L3, L2, L3CODE, L3DATA, L2CODE, L2DATA).
bool isCacheResource(std::string_view resource);
/// Hex mask without 0x ("7ff", "00fff", "0x7ff" also accepted); error names the offending text.
Result<std::uint64_t> parseMask(std::string_view text);
/// Decimal bandwidth value ("100", "  100", "4294967295").
Result<std::uint64_t> parseBandwidth(std::string_view text);
/// Normalises a value for comparison and storage: masks to "%x", bandwidth to "%u"; unparsable text is trimmed.
std::string normaliseValue(std::string_view resource, std::string_view text);

} // namespace rdt
