// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "PerfDataFeatures.h"
#include "pmu/PerfRecord.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rdt::perfdata {

/// Finds the local copy of a binary recorded in a perf.data file, like perf's --symfs but more forgiving:
/// DIR + recorded path, DIR/basename, then any ELF file directly in DIR whose GNU build-id matches the recorded one
/// (compared by the binary's own length), and last the recorded path itself. A candidate whose build-id differs
/// from the recorded one is rejected (it is another build), and so is one built for another architecture than the
/// recording's (ELF e_machine against HEADER_ARCH: an aarch64 recording's /bin/bash is not this x86 host's).
/// A candidate accepted without comparing build-ids (none recorded, or the file has none) is "matched by path
/// only". Results are cached per recorded path.
class SymbolSearch {
public:
    /// What the symbolizer is given for an executable mapping: the mapping with the local file's path, and
    /// whether that file is the recorded binary.
    struct LocalMapping {
        pmu::MmapRecord mapping;
        bool binaryPresent = false;
    };

    explicit SymbolSearch(std::vector<std::string> symfsDirs = {})
        : m_dirs(std::move(symfsDirs))
    { }

    std::optional<std::string> locate(const std::string& recordedPath, const BuildId* recorded);
    /// The local copy of an executable mapping's binary: its build-id from the file's build-id table (`header`),
    /// else from the MMAP2 record itself; nothing for pseudo paths ([vdso], [kernel.kallsyms]) and data mappings.
    /// The one lookup the CLI's import and the GUI's use.
    std::optional<std::string> locateMapping(const pmu::MmapRecord& mapping, const HeaderInfo& header);
    /// The mapping to give pmu::Symbolizer::addMapping (with binaryPresent): the one rule for the CLI and the GUI.
    LocalMapping localMapping(const pmu::MmapRecord& mapping, const HeaderInfo& header);
    /// Whether the file found for `recordedPath` was accepted without comparing build-ids.
    bool matchedByPathOnly(const std::string& recordedPath) const { return m_pathOnly.count(recordedPath) != 0; }
    /// Why no file was found for `recordedPath` when a candidate was rejected ("" otherwise), e.g. "/bin/bash is
    /// an x86-64 binary, the recording is aarch64".
    std::string rejection(const std::string& recordedPath) const;
    /// The ELF e_machine of a recording's HEADER_ARCH ("x86_64" -> 62); 0 when not known here.
    static std::uint16_t elfMachineOfArch(const std::string& arch);
    /// The e_machine of an ELF file; 0 when it is not ELF.
    static std::uint16_t readElfMachine(const std::string& file);
    /// [vdso], [kernel.kallsyms]_text, "//anon": not a file to look for.
    static bool isPseudoPath(const std::string& path) { return path.empty() || path[0] != '/'; }

    /// The NT_GNU_BUILD_ID note of an ELF file (empty when it has none or is not ELF).
    static std::vector<std::uint8_t> readBuildId(const std::string& file);

private:
    bool acceptable(const std::string& file, const BuildId* recorded, const std::string& recordedPath);

    std::vector<std::string> m_dirs;
    std::map<std::string, std::optional<std::string>> m_cache;
    std::map<std::string, std::vector<std::uint8_t>> m_dirIds; ///< build-ids of files in the symfs dirs
    bool m_scanned = false;
    std::uint16_t m_machine = 0; ///< the recording's e_machine (0: not checked)
    std::string m_arch;
    std::set<std::string> m_pathOnly; ///< recorded paths whose file was accepted without a build-id comparison
    std::map<std::string, std::string> m_rejections; ///< recorded path -> why a candidate was refused
};

} // namespace rdt::perfdata
