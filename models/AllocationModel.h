// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AllocationState.h"
#include "ExternalChangeMarks.h"
#include "rdt/AllocationRules.h"
#include "rdt/Sample.h"

#include <QAbstractTableModel>
#include <QPointer>
#include <QUndoStack>

#include <map>
#include <tuple>

/// CLOS x CBM bits of one cache ("L3" or "L2") in one domain: the model behind CacheWayHeatmap.
///
/// Rows: one per control group, two (CODE then DATA) under CDP. Columns: CBM bits, column N = bit N.
/// Edits are staged as "pending" masks (shown at once, validated with the kernel's rules); apply() turns
/// them into one AllocationEditCommand on the undo stack, which writes through the AllocationWriter and
/// reads back. A rejected write restores the row and keeps the backend's reason in RowErrorRole. The words for
/// cells and rows (tooltips, accessible texts) are AllocationCellText's.
///
/// Public API for the GUI integration:
///  - setState(): live updates from the frame pump, or a replay seek (pass the recorded state);
///  - applyChange(): apply one recorded/observed AllocationChanged to the displayed state;
///  - setWriter()/setUndoStack(): where edits go (no writer, or state.writable false = read only);
///  - signals editRejected() and allocationWritten() for the status bar and timeline markers.
class AllocationModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        CellStateRole = Qt::UserRole + 1, ///< CellState of (row, bit) with pending edits applied
        HardwareSharedRole, ///< bool: the bit is in shareable_bits
        MaskRole, ///< qulonglong: the row's mask as shown (pending edit or live)
        LiveMaskRole, ///< qulonglong: the row's mask as the backend holds it
        PendingRole, ///< bool: the row has an unapplied edit
        OccupancyBytesRole, ///< qulonglong: the row's group llc_occupancy in this domain (invalid for L2)
        OccupancyFractionRole, ///< double: occupancy / cache size
        RowErrorRole, ///< QString: why the pending mask is invalid, or the last rejection; "" when fine
        GroupRole, ///< QString: resctrl group path ("" = default)
        SchemaRole, ///< QString: "L3", "L3CODE", ...
        ClosidRole, ///< int
        IoAllocRole, ///< bool: I/O devices fill this way of the current domain (AMD io_alloc)
        ExternalChangeRole, ///< QString: what another program changed in this row and domain lately ("" when none)
    };
    Q_ENUM(Role)

    enum CellState { Unused, Allocated, Overlapping, Exclusive, Invalid };
    Q_ENUM(CellState)

    explicit AllocationModel(QObject* parent = nullptr);
    ~AllocationModel() override;

    // --- the displayed state
    /// Replaces the displayed state (pending edits and an ongoing drag survive when the rows stay the same).
    /// Groups whose occupancyBytes is empty keep the figures they had.
    void setState(const AllocationState& state);
    const AllocationState& state() const { return m_state; }
    /// Applies one observed or recorded change (ok ones only): cache values are hex, bandwidth decimal.
    void applyChange(const rdt::AllocationChanged& change);
    /// Rows another program changed lately (ExternalChangeMarks.h): the text of one row's marks in one domain.
    QString externalChangeIn(int row, int domain) const;
    int externalChangeCount() const { return m_external.count(); }
    /// The user saw the marks: they go.
    void acknowledgeExternalChanges();
    /// Updates only the occupancy figures (cheap, for the frame pump): group -> domain -> bytes.
    void setOccupancy(const std::map<std::string, std::map<int, std::uint64_t>>& occupancy);

    QStringList cacheNames() const;
    QString cache() const { return m_cache; }
    void setCache(const QString& cacheName);
    QList<int> domains() const;
    int domain() const { return m_domain; }
    void setDomain(int domainId);

    // --- row facts
    const CacheSchema* rowSchema(int row) const;
    const GroupAllocation* rowGroup(int row) const;
    int rowFor(const QString& group, const QString& schema) const;
    quint64 mask(int row) const;
    quint64 liveMask(int row) const;
    bool hasPending(int row) const;
    QString rowError(int row) const;
    QString rowLabel(int row) const;

    // --- any domain (the heatmap draws every domain side by side; domain() is the one edits go to)
    quint64 maskIn(int row, int domain) const;
    quint64 liveMaskIn(int row, int domain) const;
    bool hasPendingIn(int row, int domain) const;
    CellState cellState(int row, int bit, int domain) const;
    /// What a screen reader says for a cell (Qt::AccessibleTextRole, the heatmap's accessible cells): group,
    /// domain, bit, state, e.g. "streamer, domain 0, bit 3: allocated, hardware-shared, pending".
    QString cellAccessibleText(int row, int bit, int domain) const;
    static QString stateText(CellState state);
    /// The row's group's llc_occupancy in `domain`; false when there is none (an L2 row, or no reading yet).
    bool occupancyIn(int row, int domain, quint64* bytes = nullptr) const;

    // --- editing
    bool isEditable() const;
    QString readOnlyReason() const;
    void setWriter(AllocationWriter* writer);
    AllocationWriter* writer() const { return m_writer; }
    /// The stack edits are pushed to; the model owns a default one until another is set.
    void setUndoStack(QUndoStack* stack);
    QUndoStack* undoStack() const { return m_undo; }
    bool applyLive() const { return m_applyLive; }
    void setApplyLive(bool live);

    /// Stages `mask` for `row` (validated; invalid ones stay, shown red with the reason). Writes at once when
    /// applyLive(). Returns false when not editable.
    bool setPendingMask(int row, quint64 mask);
    void clearPending(int row);
    /// A transient mask shown for `row` while a drag is in progress; never written. clearPreview() drops it.
    void setPreview(int row, quint64 mask);
    void clearPreview();
    int previewRow() const { return m_previewRow; }
    bool hasPendingEdits() const;
    bool pendingValid() const;
    /// Writes every pending edit as one undoable command. False if nothing valid to apply or the backend refused.
    bool apply();
    /// Drops every pending edit and every shown rejection.
    void revert();

    // --- called by AllocationEditCommand and BandwidthModel (not for views)
    void storeValue(const std::string& group, const std::string& schema, int domain, std::uint64_t value, bool cache);
    void reportRejection(const std::string& group, const std::string& schema, int domain, const QString& message);
    void notifyWritten(const rdt::AllocationChanged& change);
    /// The last rejection shown for one value ("" when none): used by AllocationBandwidthModel.
    QString errorFor(const std::string& group, const std::string& schema, int domain) const;

    // --- QAbstractItemModel
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

Q_SIGNALS:
    /// The backend refused an edit; the row shows its live mask again and `message` beside it.
    void editRejected(int row, const QString& message);
    /// An edit was written and read back (feed it to the timeline markers / session).
    void allocationWritten(const rdt::AllocationChanged& change);
    void editableChanged(bool editable, const QString& reason);
    void pendingChanged();
    /// An external change was marked or the marks were acknowledged.
    void externalChangesChanged();
    /// The state (groups, schemas, values) changed; the MBA editor listens to this.
    void stateChanged();

private:
    using Key = std::tuple<std::string, std::string, int>; // group, schema, domain
    struct Row {
        int group = 0; // index into m_state.groups
        std::string schema;
    };
    void rebuildRows();
    Key keyFor(int row) const;
    Key keyFor(int row, int domain) const;
    rdt::PeerMask peerOf(int row, quint64 mask) const;
    std::vector<rdt::PeerMask> peersOf(int row, const GroupAllocation& self) const;
    QString reasonFor(int row, quint64 mask, const std::vector<rdt::PeerMask>& peers) const;
    QString invalidReason(int row, quint64 mask) const;
    void emitAllChanged(bool headers = true);
    /// Per-row facts every cell of a frame needs, computed once per change instead of once per cell.
    struct Derived {
        quint64 mask = 0; ///< shown mask (preview, pending or live)
        quint64 others = 0; ///< union of the other groups' shown masks (overlap colour)
        bool pending = false;
        QString invalid; ///< why a pending mask is invalid ("" when valid or not pending)
    };
    const Derived& derived(int row) const;
    const Derived& derived(int row, int domain) const;
    quint64 computeMask(int row, int domain) const;
    void emitEditable();

    AllocationState m_state;
    std::vector<Row> m_rows;
    QString m_cache;
    int m_domain = 0;
    std::map<Key, quint64> m_pending;
    std::map<Key, QString> m_errors;
    AllocationWriter* m_writer = nullptr;
    QPointer<QUndoStack> m_undo;
    QUndoStack* m_ownUndo = nullptr;
    bool m_applyLive = true;
    bool m_lastEditable = false;
    bool m_rejected = false;
    int m_previewRow = -1;
    mutable std::map<int, std::vector<Derived>> m_derived; ///< per domain, filled on first use after a change
    mutable bool m_derivedValid = false;
    quint64 m_previewMask = 0;
    ExternalChangeMarks m_external;
};
