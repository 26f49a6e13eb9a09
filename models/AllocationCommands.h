// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QUndoCommand>

#include <cstdint>
#include <string>
#include <vector>

class AllocationModel;

/// One value change: a CBM (cache == true) or a bandwidth value, for one group, schema and domain.
struct AllocationEdit {
    std::string group;
    std::string schema;
    int domain = 0;
    std::uint64_t oldValue = 0;
    std::uint64_t newValue = 0;
    bool cache = true;
};

/// An undoable allocation edit (docs/ARCHITECTURE.md "Data flow": view -> QUndoCommand -> engine allocation API ->
/// backend write -> read back). redo() writes the new values, undo() writes the old ones back, both through the
/// model's AllocationWriter. If the backend rejects any write, the values already written by this command are
/// written back (so every domain it touched is rolled back), the row shows the backend's reason, and the command
/// marks itself obsolete so QUndoStack drops it instead of keeping an edit that never happened.
class AllocationEditCommand : public QUndoCommand {
public:
    AllocationEditCommand(AllocationModel* model, std::vector<AllocationEdit> edits, QUndoCommand* parent = nullptr);
    /// Bandwidth edits of one group and domain that only hold together (a region's min, opt and max): written as
    /// one change (AllocationWriter::writeBandwidths), so the validator judges the whole and a refusal writes none.
    static AllocationEditCommand* together(AllocationModel* model, std::vector<AllocationEdit> edits);

    void redo() override;
    void undo() override;

    const std::vector<AllocationEdit>& edits() const { return m_edits; }

private:
    /// Writes `forward ? newValue : oldValue` for every edit; on a rejection rolls back and returns false.
    bool writeAll(bool forward);
    /// The same for `together` edits: one write of all of them.
    bool writeTogether(bool forward);

    AllocationModel* m_model;
    std::vector<AllocationEdit> m_edits;
    bool m_together = false;
};
