// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rdt {

/// The four registers one CPUID execution returns.
struct CpuidRegs {
    std::uint32_t eax = 0;
    std::uint32_t ebx = 0;
    std::uint32_t ecx = 0;
    std::uint32_t edx = 0;
    bool operator==(const CpuidRegs&) const = default;
};

/// The CPUID seam (docs/ARCHITECTURE.md "The seams"): the live instruction, /dev/cpu/N/cpuid, a dump file or a recorded
/// snapshot. query() returns nullopt when the source does not know the leaf/sub-leaf (beyond the maximum leaf,
/// or absent from a dump); the decoder turns that into a warning, never into a guessed value.
class CpuidSource {
public:
    virtual ~CpuidSource() = default;
    virtual std::optional<CpuidRegs> query(std::uint32_t leaf, std::uint32_t subleaf) = 0;
    /// Where the values come from, e.g. "CPUID instruction (live)" or "AIDA64 dump skx.txt, logical CPU #0".
    virtual std::string describe() const = 0;
    /// What the source could not place (dump lines belonging to no CPU or sub-leaf, docs/CPUID-DUMPS.md): the
    /// decoder shows them as warnings. Empty for live sources.
    virtual std::vector<std::string> notes() const { return {}; }
};

/// A recorded set of CPUID answers: what every dump reader produces, what sessions store (as JSON, see
/// CpuidDump.h) and what the simulator's presets are made of.
/// An entry recorded without a sub-leaf label (dump lines without "[SL nn]") answers sub-leaf 0, and any
/// sub-leaf of leaves whose output does not depend on ECX (01H, 0AH, 1CH, 8000000xH...): real CPUs ignore ECX there.
class CpuidTable final : public CpuidSource {
public:
    struct Entry {
        std::uint32_t leaf = 0;
        std::uint32_t subleaf = 0;
        bool subleafLabelled = true; ///< false: the source gave no sub-leaf (see class comment)
        CpuidRegs regs;
        bool operator==(const Entry&) const = default;
    };

    CpuidTable() = default;
    explicit CpuidTable(std::string description)
        : m_description(std::move(description))
    { }

    /// Adds or replaces an entry.
    void set(std::uint32_t leaf, std::uint32_t subleaf, const CpuidRegs& regs, bool subleafLabelled = true);
    std::optional<CpuidRegs> query(std::uint32_t leaf, std::uint32_t subleaf) override;
    std::string describe() const override { return m_description; }
    void setDescription(std::string description) { m_description = std::move(description); }
    std::vector<std::string> notes() const override { return m_notes; }
    void addNote(std::string note) { m_notes.push_back(std::move(note)); }

    /// All entries ordered by (leaf, sub-leaf).
    std::vector<Entry> entries() const;
    bool empty() const { return m_entries.empty(); }
    std::size_t size() const { return m_entries.size(); }

    /// True when CPUID ignores ECX for this leaf (SDM Vol. 2 CPUID: leaves without sub-leaves).
    static bool leafIgnoresSubleaf(std::uint32_t leaf);

private:
    std::map<std::pair<std::uint32_t, std::uint32_t>, Entry> m_entries;
    std::string m_description;
    std::vector<std::string> m_notes; ///< not part of the table's values: snapshots do not store them
};

/// Reads every leaf and sub-leaf the decoder uses (00H-23H with their sub-leaves, 8000000xH) from any source
/// into a table, so a live machine can be stored in a session and replayed with the same Machine panel.
CpuidTable snapshotCpuid(CpuidSource& source);

} // namespace rdt
