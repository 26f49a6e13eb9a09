// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "PerfDataFeatures.h"
#include "pmu/PerfRecord.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rdt::perfdata {

/// Finds the local copy of a binary recorded in a perf.data file, like perf's --symfs but more forgiving:
/// DIR + recorded path, DIR/basename, then any ELF file directly in DIR whose GNU build-id matches the recorded one
/// (compared by the binary's own length), and last the recorded path itself. A candidate whose build-id differs
/// from the recorded one is rejected (it is another build). Results are cached per recorded path.
class SymbolSearch {
public:
    explicit SymbolSearch(std::vector<std::string> symfsDirs = {})
        : m_dirs(std::move(symfsDirs))
    { }

    std::optional<std::string> locate(const std::string& recordedPath, const BuildId* recorded);
    /// The local copy of an executable mapping's binary: its build-id from the file's build-id table (`header`),
    /// else from the MMAP2 record itself; nothing for pseudo paths ([vdso], [kernel.kallsyms]) and data mappings.
    /// The one lookup the CLI's import and the GUI's use.
    std::optional<std::string> locateMapping(const pmu::MmapRecord& mapping, const HeaderInfo& header);
    /// [vdso], [kernel.kallsyms]_text, "//anon": not a file to look for.
    static bool isPseudoPath(const std::string& path) { return path.empty() || path[0] != '/'; }

    /// The NT_GNU_BUILD_ID note of an ELF file (empty when it has none or is not ELF).
    static std::vector<std::uint8_t> readBuildId(const std::string& file);

private:
    bool acceptable(const std::string& file, const BuildId* recorded);

    std::vector<std::string> m_dirs;
    std::map<std::string, std::optional<std::string>> m_cache;
    std::map<std::string, std::vector<std::uint8_t>> m_dirIds; ///< build-ids of files in the symfs dirs
    bool m_scanned = false;
};

} // namespace rdt::perfdata
