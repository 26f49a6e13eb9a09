// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Addresses to function names. Per-process address maps come from MMAP/MMAP2 + COMM + FORK/EXIT records (and
// /proc/PID/maps when attaching to a running process); ELF symbols and DWARF lines come from elfutils libdwfl,
// finding separate debug info by build-id; kernel addresses use /proc/kallsyms when it shows real addresses;
// the simulated program registers in-memory symbol tables. Results are cached per (pid, address).
// Unresolved addresses are shown as module+offset ("libfoo.so+0x1a2b"), or "[unknown] 0x..." without a module.

#include "PerfRecord.h"
#include "core/Result.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace rdt::pmu {

struct SymbolInfo {
    std::string function; ///< "main", "std::vector<int>::push_back", or "module+0x..." when unresolved
    std::string module; ///< basename of the mapped file, "[kernel.kallsyms]", "[sim]"; empty when unknown
    std::uint64_t offset = 0; ///< address - symbol start (resolved) or module-relative offset (unresolved)
    std::string sourceFile; ///< from DWARF when available
    int line = 0;
    bool resolved = false;
};

/// A named address range of an in-memory symbol table (the simulated program, JIT maps).
struct SymbolRange {
    std::uint64_t start = 0;
    std::uint64_t size = 0;
    std::string name;
};

class ElfModule; // libdwfl-backed, one per file (Symbolizer.cpp)

class Symbolizer {
public:
    Symbolizer();
    ~Symbolizer();
    Symbolizer(const Symbolizer&) = delete;
    Symbolizer& operator=(const Symbolizer&) = delete;

    /// Feeds MMAP/MMAP2/COMM/FORK/EXIT records; other kinds are ignored.
    void onRecord(const DecodedRecord& record);
    /// `binaryPresent` false: the mapped file is not the recorded binary (not found, another build or another
    /// architecture): its addresses stay module+offset and no file at that path is opened.
    void addMapping(std::uint32_t pid, const MmapRecord& m, bool binaryPresent = true);
    void setComm(std::uint32_t pid, std::string comm);
    /// Reads /proc/PID/maps (and comm) for a process that was already running when capture started.
    Status loadProcMaps(std::uint32_t pid);
    /// Reads /proc/kallsyms when it shows real addresses (kptr_restrict / perf_event_paranoid allow it).
    Status loadKallsyms(const std::string& path = "/proc/kallsyms");
    /// Registers an in-memory symbol table for `pid` (all processes when pid == 0), module name e.g. "[sim]".
    void addSymbolTable(std::uint32_t pid, std::string module, std::vector<SymbolRange> symbols);

    /// Records what another symbolizer named an address (a capture service's, possibly on another machine):
    /// resolve(pid, addr) answers it from here on.
    void addResolved(std::uint32_t pid, std::uint64_t addr, SymbolInfo symbol)
    {
        m_cache[{ pid, addr }] = std::move(symbol);
    }
    /// Resolves an address in a process (cached). Kernel addresses (>= 0xffff800000000000) use kallsyms.
    const SymbolInfo& resolve(std::uint32_t pid, std::uint64_t addr);
    std::string comm(std::uint32_t pid) const;
    /// Up to 16 bytes of code at `addr` from the mapped binary itself (not from a separate debug file, whose code
    /// sections are empty), and the binary's ELF e_machine; 0 when the bytes are not there.
    std::size_t codeAt(std::uint32_t pid, std::uint64_t addr, std::uint8_t (&out)[16], std::uint16_t& machine);

    std::size_t cacheSize() const { return m_cache.size(); }
    std::size_t moduleCount() const { return m_modules.size(); }

private:
    struct Mapping {
        std::uint64_t start = 0, end = 0, pgoff = 0;
        std::string path;
        std::vector<std::uint8_t> buildId;
        bool binaryPresent = true;
    };
    struct Process {
        std::map<std::uint64_t, Mapping> maps; ///< by start address
        std::string comm;
    };
    struct Key {
        std::uint32_t pid;
        std::uint64_t addr;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const { return std::hash<std::uint64_t>()(k.addr * 31 + k.pid); }
    };

    SymbolInfo lookup(std::uint32_t pid, std::uint64_t addr);
    const Mapping* mappingAt(std::uint32_t pid, std::uint64_t addr) const;
    ElfModule* module(const std::string& path, const std::vector<std::uint8_t>& buildId);
    static SymbolInfo fromTable(const std::vector<SymbolRange>& table, const std::string& module, std::uint64_t addr);

    std::unordered_map<std::uint32_t, Process> m_procs;
    std::unordered_map<std::string, std::unique_ptr<ElfModule>> m_modules; ///< by path (null: failed, cached)
    std::unordered_map<Key, SymbolInfo, KeyHash> m_cache;
    std::vector<SymbolRange> m_kallsyms; ///< sorted by start
    std::map<std::uint32_t, std::pair<std::string, std::vector<SymbolRange>>> m_tables; ///< pid 0: every process
};

/// Basename of a path ("/usr/lib/libc.so.6" -> "libc.so.6").
std::string baseName(const std::string& path);

} // namespace rdt::pmu
