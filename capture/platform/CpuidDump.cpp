// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/CpuidDump.h"
#include "core/BoundedFile.h"
#include "core/Json.h"
#include "core/Text.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string_view>
#include <vector>

namespace rdt {

namespace {

bool parseHex32(const std::string& text, std::uint32_t& out)
{
    if (text.empty() || text.size() > 10) return false;
    char* end = nullptr;
    errno = 0;
    const unsigned long v = std::strtoul(text.c_str(), &end, 16);
    if (end != text.c_str() + text.size() || errno != 0 || v > 0xFFFFFFFFUL) return false;
    out = static_cast<std::uint32_t>(v);
    return true;
}

/// Calls `each` with every line of `text` as std::getline splits it ('\n' ends a line; the last line needs none; no
/// empty line after a final '\n'), as views: a dump of many logical CPUs has thousands of lines, and each parser
/// skips most of them without copying one.
template <typename Each> void forEachLine(std::string_view text, Each&& each)
{
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        each(text.substr(pos, end - pos));
        pos = end + 1;
    }
}

/// "------[ Logical CPU #12 ]------" -> 12
bool parseAidaCpuHeader(std::string_view line, unsigned& cpu)
{
    const auto p = line.find("Logical CPU #");
    if (p == std::string_view::npos || line.find("------[") == std::string_view::npos) return false;
    // strtoul on a copy of the rest of the line: it must not read on into the next line (it skips newlines).
    const std::string rest(line.substr(p + 13));
    char* end = nullptr;
    const unsigned long v = std::strtoul(rest.c_str(), &end, 10);
    if (end == rest.c_str()) return false;
    cpu = static_cast<unsigned>(v);
    return true;
}

/// "CPUID 0000000F: 00000000-00012000-0000008F-00000007 [SL 01] [...]"
bool parseAidaLine(std::string_view view, std::uint32_t& leaf, CpuidRegs& regs, std::optional<std::uint32_t>& sub)
{
    if (!view.starts_with("CPUID ")) return false;
    const std::string line(view);
    const auto colon = line.find(':');
    if (colon == std::string::npos || !parseHex32(std::string(trim(line.substr(6, colon - 6))), leaf)) return false;
    const std::string rest = std::string(trim(line.substr(colon + 1)));
    if (rest.size() < 35) return false;
    std::uint32_t r[4];
    for (int i = 0; i < 4; ++i) {
        const std::size_t off = static_cast<std::size_t>(i) * 9;
        if (i < 3 && rest[off + 8] != '-') return false;
        if (!parseHex32(rest.substr(off, 8), r[i])) return false;
    }
    regs = { r[0], r[1], r[2], r[3] };
    sub.reset();
    if (const auto sl = rest.find("[SL ", 35); sl != std::string::npos) {
        const auto close = rest.find(']', sl);
        std::uint32_t s = 0;
        if (close == std::string::npos || !parseHex32(std::string(trim(rest.substr(sl + 4, close - sl - 4))), s))
            return false;
        sub = s;
    }
    return true;
}

/// A necessary condition for sscanf(line, "CPU %u:") to convert: "CPU", optional whitespace, then a sign or a digit
/// (%u skips whitespace and takes strtoul's optional sign). AIDA64 text has thousands of "CPUID ..." lines that
/// start like a `cpuid -r` header; this rejects them without a copy and a sscanf each.
bool mayBeRawCpuHeader(std::string_view t)
{
    if (!t.starts_with("CPU")) return false;
    std::size_t i = 3;
    while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i])))
        ++i;
    return i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '+' || t[i] == '-');
}

std::string dumpName(const std::string& name, const char* kind, unsigned cpu)
{
    return std::string(kind) + (name.empty() ? std::string() : " " + name) + ", logical CPU #" + std::to_string(cpu);
}

} // namespace

/// "CPUID 0000000F:" (any hex leaf and a colon): a register line, whether or not its registers then parse. AIDA64's
/// report sections also hold "CPUID Manufacturer: ..." and "CPUID Revision : ...", which are not.
bool looksLikeAidaCpuidLine(std::string_view line)
{
    if (!line.starts_with("CPUID ")) return false;
    std::size_t i = 6, digits = 0;
    while (i < line.size() && std::isxdigit(static_cast<unsigned char>(line[i])) && digits < 9)
        ++i, ++digits;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
        ++i;
    return digits >= 1 && digits <= 8 && i < line.size() && line[i] == ':';
}

Result<CpuidTable> parseAida64Dump(const std::string& text, unsigned logicalCpu, const std::string& name)
{
    // The rules of docs/CPUID-DUMPS.md: CPU blocks come from "Logical CPU #n" headers, or, in a file without them,
    // from leaf-0 lines (a CPU's dump starts at leaf 0, so another leaf-0 line starts the next CPU); a "[SL nn]" tag
    // names the sub-leaf, and untagged repeated lines of a sub-leaf-indexed leaf are its successive sub-leaves.
    bool hasHeaders = false;
    forEachLine(text, [&](std::string_view line) {
        unsigned cpu = 0;
        hasHeaders = hasHeaders || parseAidaCpuHeader(line, cpu);
    });
    CpuidTable table;
    std::optional<unsigned> current; // the CPU the next register line belongs to; none before the first one starts
    bool cpuHasLines = false; // the current CPU has register lines already
    unsigned cpusSeen = 0; // header-less files: CPUs started so far
    bool sawWanted = false;
    bool tagged = false; // any "[SL nn]" line in the file
    std::set<std::uint32_t> labelled; ///< leaves of the current CPU seen with an [SL nn] tag
    std::map<std::uint32_t, std::uint32_t> untaggedCount; ///< untagged lines per leaf in the current CPU
    std::vector<std::string> notes;
    std::size_t lineNo = 0, unplaced = 0;
    auto note = [&](std::string what) {
        ++unplaced;
        if (notes.size() < 20) notes.push_back("line " + std::to_string(lineNo) + ": " + std::move(what));
    };
    auto startCpu = [&](unsigned cpu) {
        current = cpu;
        cpuHasLines = false;
        labelled.clear();
        untaggedCount.clear();
        sawWanted = sawWanted || cpu == logicalCpu;
    };
    forEachLine(text, [&](std::string_view line) {
        ++lineNo;
        unsigned cpu = 0;
        if (parseAidaCpuHeader(line, cpu)) {
            startCpu(cpu);
            return;
        }
        if (!looksLikeAidaCpuidLine(line)) return; // report text, blank lines, section headers
        std::uint32_t leaf = 0;
        CpuidRegs regs;
        std::optional<std::uint32_t> sub;
        if (!parseAidaLine(line, leaf, regs, sub)) {
            note("'" + std::string(trim(line)) + "' is not a CPUID line (expected 'CPUID 0000000F: "
                + "00000000-00012000-0000008F-00000007 [SL 01]'): ignored");
            return;
        }
        if (!hasHeaders && (!current || (leaf == 0 && cpuHasLines))) startCpu(cpusSeen++);
        if (!current) {
            note("CPUID " + formatString("%08X", leaf)
                + " before the first 'Logical CPU #n' header belongs to no CPU: ignored");
            return;
        }
        cpuHasLines = true;
        if (*current != logicalCpu) return;
        if (sub) {
            tagged = true;
            labelled.insert(leaf);
            table.set(leaf, *sub, regs, true);
            return;
        }
        const std::uint32_t n = untaggedCount[leaf]++;
        if (labelled.count(leaf) && n == 0) {
            // An untagged line beside tagged ones of its leaf (AIDA64 prints some leaves both ways) repeats sub-leaf 0.
            if (auto known = table.query(leaf, 0); known && *known == regs) return;
            note("untagged CPUID " + formatString("%08X", leaf) + " differs from its [SL 00] line: ignored");
            return;
        }
        if (CpuidTable::leafIgnoresSubleaf(leaf)) {
            if (n > 0) {
                if (auto known = table.query(leaf, 0); known && *known == regs) return;
                note("a second CPUID " + formatString("%08X", leaf) + " line for CPU #" + std::to_string(*current)
                    + " (a leaf without sub-leaves) differs from the first: ignored");
                return;
            }
            table.set(leaf, 0, regs, false);
            return;
        }
        // Sub-leaf-indexed leaf without tags (EVEREST-era and raw dumps): the n-th line is sub-leaf n. The table marks
        // it unlabelled: the sub-leaf number is the line's position, not something the dump says.
        if (labelled.count(leaf)) {
            note("untagged CPUID " + formatString("%08X", leaf)
                + " after tagged lines of the same leaf cannot be placed: ignored");
            return;
        }
        table.set(leaf, n, regs, false);
    });
    const std::string file = name.empty() ? "dump" : name;
    const unsigned cpus = hasHeaders ? 0 : cpusSeen;
    if (!sawWanted && (hasHeaders || cpus > 0))
        return errnoError(EINVAL, "no logical CPU #" + std::to_string(logicalCpu) + " in " + file,
            hasHeaders ? std::string("pick a CPU that the dump lists")
                       : "the dump has no CPU headers and " + std::to_string(cpus)
                    + " CPUs (each starts at its CPUID 00000000 line): pick one of 0.." + std::to_string(cpus - 1));
    if (table.empty())
        return errnoError(EINVAL, "no CPUID lines for logical CPU #" + std::to_string(logicalCpu) + " in " + file,
            "expected AIDA64/InstLatx64 lines such as 'CPUID 0000000F: 00000000-0000008F-00000000-00000002 [SL 00]'");
    const char* kind = hasHeaders ? (tagged ? "AIDA64/InstLatx64 dump" : "AIDA64/EVEREST dump without sub-leaf tags")
                                  : (cpus > 1 ? "CPUID dump without CPU headers" : "CPUID dump");
    table.setDescription(dumpName(name, kind, logicalCpu)
        + (!hasHeaders && cpus > 1 ? " of " + std::to_string(cpus) + " (counted by leaf-0 lines)" : std::string()));
    if (unplaced > notes.size())
        notes.push_back(std::to_string(unplaced - notes.size()) + " more lines could not be placed");
    for (auto& n : notes)
        table.addNote(file + " " + n);
    return table;
}

Result<CpuidTable> parseRawCpuidDump(const std::string& text, unsigned logicalCpu, const std::string& name)
{
    CpuidTable table(dumpName(name, "cpuid -r dump", logicalCpu));
    unsigned current = 0;
    bool sawHeader = false;
    bool sawWanted = false;
    std::string owned; // sscanf needs a terminated copy; only the lines that can match get one
    std::size_t lineNo = 0, unreadable = 0;
    forEachLine(text, [&](std::string_view line) {
        ++lineNo;
        const std::string_view t = trim(line);
        unsigned cpu = 0;
        if (mayBeRawCpuHeader(t)) {
            owned.assign(t);
            if (std::sscanf(owned.c_str(), "CPU %u:", &cpu) == 1 && t.find('=') == std::string_view::npos) {
                current = cpu;
                sawHeader = true;
                sawWanted = sawWanted || cpu == logicalCpu;
                return;
            }
        }
        // The format's leading "0x" is literal: sscanf cannot match a line that does not start with it.
        if (current != logicalCpu || !t.starts_with("0x")) return;
        owned.assign(t);
        unsigned leaf = 0, sub = 0, a = 0, b = 0, c = 0, d = 0;
        if (std::sscanf(owned.c_str(), "0x%x 0x%x: eax=0x%x ebx=0x%x ecx=0x%x edx=0x%x", &leaf, &sub, &a, &b, &c, &d)
            == 6)
            table.set(leaf, sub, { a, b, c, d }, !CpuidTable::leafIgnoresSubleaf(leaf) || sub != 0);
        else if (++unreadable <= 20)
            table.addNote((name.empty() ? "dump" : name) + " line " + std::to_string(lineNo) + ": '" + owned
                + "' is not a `cpuid -r` line: ignored");
    });
    if (sawHeader && !sawWanted)
        return errnoError(EINVAL, "no CPU " + std::to_string(logicalCpu) + " in " + (name.empty() ? "dump" : name),
            "pick a CPU that the dump lists");
    if (table.empty())
        return errnoError(EINVAL,
            "no CPUID lines for CPU " + std::to_string(logicalCpu) + " in " + (name.empty() ? "dump" : name),
            "expected `cpuid -r` lines such as '   0x0000000f 0x01: eax=0x00000000 ebx=0x00012000 ecx=0x0000008f "
            "edx=0x00000007'");
    return table;
}

std::string cpuidTableToJson(const CpuidTable& table)
{
    // Register values as "0x%08x" strings: exact, and greppable next to `cpuid -r` output.
    auto hex = [](std::uint32_t v) { return formatHexPadded(v, 8); };
    json::Ordered entries = json::Ordered::array();
    for (const auto& e : table.entries())
        entries.push_back({ { "leaf", hex(e.leaf) }, { "subleaf", e.subleaf }, { "labelled", e.subleafLabelled },
            { "eax", hex(e.regs.eax) }, { "ebx", hex(e.regs.ebx) }, { "ecx", hex(e.regs.ecx) },
            { "edx", hex(e.regs.edx) } });
    const json::Ordered doc = { { "format", "rdtscope-cpuid" }, { "version", 1 }, { "source", table.describe() },
        { "entries", std::move(entries) } };
    return json::dumpLined(doc, "entries");
}

Result<CpuidTable> cpuidTableFromJson(const std::string& text)
{
    auto doc = json::parse(text);
    if (!doc) return doc.error();
    const json::Value& root = *doc;
    // find() on a non-object is end(), so a document that is an array or a number fails the first check.
    const auto format = root.find("format");
    if (format == root.end() || !format->is_string() || *format != "rdtscope-cpuid")
        return makeError("not an rdtscope CPUID snapshot (\"format\" is not \"rdtscope-cpuid\")",
            "pass a snapshot written by rdtscope, an AIDA64/InstLatx64 dump or `cpuid -r` output");
    const auto version = root.find("version");
    if (version == root.end() || !version->is_number() || *version != 1)
        return makeError("unsupported CPUID snapshot version", "this rdtscope reads version 1");
    const auto entries = root.find("entries");
    if (entries == root.end() || !entries->is_array()) return makeError("CPUID snapshot has no \"entries\" array");
    CpuidTable table;
    if (const auto source = root.find("source"); source != root.end() && source->is_string())
        table.setDescription(source->get<std::string>());
    std::size_t index = 0;
    for (const auto& e : *entries) {
        auto field = [&](const char* key, std::uint32_t& out) {
            const auto v = e.find(key);
            if (v == e.end() || !v->is_string()) return false;
            const std::string& s = v->get_ref<const std::string&>();
            return parseHex32(s.rfind("0x", 0) == 0 ? s.substr(2) : s, out);
        };
        std::uint32_t leaf = 0;
        CpuidRegs regs;
        const auto sub = e.find("subleaf");
        const auto labelled = e.find("labelled");
        const bool subOk = sub != e.end() && sub->is_number() && *sub >= 0 && *sub <= 4294967295.0;
        if (!field("leaf", leaf) || !field("eax", regs.eax) || !field("ebx", regs.ebx) || !field("ecx", regs.ecx)
            || !field("edx", regs.edx) || !subOk)
            return makeError("CPUID snapshot entry " + std::to_string(index) + " is malformed",
                "each entry needs leaf/eax/ebx/ecx/edx as hex strings and a numeric subleaf");
        table.set(leaf, static_cast<std::uint32_t>(sub->get<double>()), regs,
            labelled == e.end() || !labelled->is_boolean() || labelled->get<bool>());
        ++index;
    }
    return table;
}

CpuidDumpFormat detectCpuidDumpFormat(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') return CpuidDumpFormat::Json;
    if (text.find("eax=0x") != std::string::npos) return CpuidDumpFormat::CpuidRaw;
    if (text.find("CPUID 0000000") != std::string::npos) return CpuidDumpFormat::Aida64;
    return CpuidDumpFormat::Unknown;
}

Result<CpuidTable> loadCpuidDump(const std::string& path, unsigned logicalCpu)
{
    // The largest real dumps (AIDA64, hundreds of CPUs) are a few MiB; /dev/zero must not fill memory.
    constexpr std::size_t kMaxDumpBytes = 64u << 20;
    auto read = readBoundedFile(path, kMaxDumpBytes, "CPUID dump");
    if (!read) return read.error();
    const std::string& text = *read;
    const auto slash = path.find_last_of('/');
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    switch (detectCpuidDumpFormat(text)) {
    case CpuidDumpFormat::Aida64:
        return parseAida64Dump(text, logicalCpu, name);
    case CpuidDumpFormat::CpuidRaw:
        return parseRawCpuidDump(text, logicalCpu, name);
    case CpuidDumpFormat::Json:
        return cpuidTableFromJson(text);
    case CpuidDumpFormat::Unknown:
        break;
    }
    return errnoError(EINVAL, path + " is not a CPUID dump",
        "accepted: AIDA64/InstLatx64 text ('CPUID 0000000F: ...'), `cpuid -r` output, or an rdtscope JSON snapshot");
}

} // namespace rdt
