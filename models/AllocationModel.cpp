// SPDX-License-Identifier: GPL-3.0-or-later
#include "AllocationModel.h"

#include "AllocationCellText.h"
#include "AllocationCommands.h"
#include "rdt/AllocationRules.h"

namespace {
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}
} // namespace

AllocationModel::AllocationModel(QObject* parent)
    : QAbstractTableModel(parent)
    , m_ownUndo(new QUndoStack(this))
{
    m_undo = m_ownUndo;
}

AllocationModel::~AllocationModel() = default;

void AllocationModel::setState(const AllocationState& incoming)
{
    // Occupancy arrives per frame through setOccupancy(); a state read from schemata carries none, so a group
    // without figures keeps its last ones instead of blinking to empty until the next frame.
    AllocationState state = incoming;
    for (auto& g : state.groups) {
        if (!g.occupancyBytes.empty()) continue;
        for (const auto& old : m_state.groups) {
            if (old.group == g.group) g.occupancyBytes = old.occupancyBytes;
        }
    }
    const bool sameShape = [&] {
        if (state.caches.size() != m_state.caches.size() || state.groups.size() != m_state.groups.size()
            || state.domains != m_state.domains)
            return false;
        for (std::size_t i = 0; i < state.caches.size(); ++i) {
            if (state.caches[i].name != m_state.caches[i].name
                || state.caches[i].cbmLength != m_state.caches[i].cbmLength)
                return false;
        }
        for (std::size_t i = 0; i < state.groups.size(); ++i) {
            if (state.groups[i].group != m_state.groups[i].group) return false;
        }
        return true;
    }();
    if (sameShape) {
        m_state = state;
        emitAllChanged();
    } else {
        beginResetModel();
        m_previewRow = -1;
        m_state = state;
        const QStringList names = cacheNames();
        if (!names.contains(m_cache)) m_cache = names.value(0);
        if (!m_state.domains.empty()
            && std::find(m_state.domains.begin(), m_state.domains.end(), m_domain) == m_state.domains.end())
            m_domain = m_state.domains.front();
        rebuildRows();
        m_derivedValid = false;
        endResetModel();
    }
    emitEditable();
    Q_EMIT stateChanged();
}

void AllocationModel::applyChange(const rdt::AllocationChanged& change)
{
    if (!change.ok) return;
    bool okNum = false;
    const bool cache = m_state.cacheSchema(change.resource) != nullptr;
    const quint64 v = qs(change.newValue).trimmed().toULongLong(&okNum, cache ? 16 : 10);
    if (okNum) storeValue(change.group, change.resource, change.domain, v, cache);
    if (m_external.add(change)) {
        emitAllChanged(false);
        Q_EMIT externalChangesChanged();
    }
}

QString AllocationModel::externalChangeIn(int row, int domain) const
{
    const GroupAllocation* g = rowGroup(row);
    const CacheSchema* s = rowSchema(row);
    return g && s ? m_external.textFor(g->group, s->name, domain) : QString();
}

void AllocationModel::acknowledgeExternalChanges()
{
    if (m_external.count() == 0) return;
    m_external.clear();
    emitAllChanged(false);
    Q_EMIT externalChangesChanged();
}

void AllocationModel::setOccupancy(const std::map<std::string, std::map<int, std::uint64_t>>& occupancy)
{
    for (auto& g : m_state.groups) {
        const auto it = occupancy.find(g.group);
        if (it != occupancy.end()) g.occupancyBytes = it->second;
    }
    emitAllChanged(false);
}

QStringList AllocationModel::cacheNames() const
{
    QStringList out;
    for (const auto& n : m_state.cacheNames())
        out << qs(n);
    return out;
}

void AllocationModel::setCache(const QString& cacheName)
{
    if (cacheName == m_cache || !cacheNames().contains(cacheName)) return;
    beginResetModel();
    m_previewRow = -1;
    m_cache = cacheName;
    rebuildRows();
    m_derivedValid = false;
    endResetModel();
}

QList<int> AllocationModel::domains() const
{
    return QList<int>(m_state.domains.begin(), m_state.domains.end());
}

void AllocationModel::setDomain(int domainId)
{
    if (domainId == m_domain) return;
    m_previewRow = -1;
    m_derivedValid = false; // the preview belonged to the old domain
    m_domain = domainId;
    emitAllChanged();
}

void AllocationModel::rebuildRows()
{
    m_rows.clear();
    const std::string cache = m_cache.toStdString();
    for (std::size_t g = 0; g < m_state.groups.size(); ++g) {
        for (const auto& c : m_state.caches) {
            if (c.cacheName() == cache) m_rows.push_back({ static_cast<int>(g), c.name });
        }
    }
}

const CacheSchema* AllocationModel::rowSchema(int row) const
{
    if (row < 0 || row >= rowCount()) return nullptr;
    return m_state.cacheSchema(m_rows[static_cast<std::size_t>(row)].schema);
}

const GroupAllocation* AllocationModel::rowGroup(int row) const
{
    if (row < 0 || row >= rowCount()) return nullptr;
    return &m_state.groups[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(row)].group)];
}

int AllocationModel::rowFor(const QString& group, const QString& schema) const
{
    for (int r = 0; r < rowCount(); ++r) {
        if (qs(rowGroup(r)->group) == group && qs(m_rows[static_cast<std::size_t>(r)].schema) == schema) return r;
    }
    return -1;
}

AllocationModel::Key AllocationModel::keyFor(int row) const
{
    return keyFor(row, m_domain);
}

AllocationModel::Key AllocationModel::keyFor(int row, int domain) const
{
    return { rowGroup(row)->group, m_rows[static_cast<std::size_t>(row)].schema, domain };
}

quint64 AllocationModel::liveMask(int row) const
{
    return liveMaskIn(row, m_domain);
}

quint64 AllocationModel::liveMaskIn(int row, int domain) const
{
    const GroupAllocation* g = rowGroup(row);
    if (!g) return 0;
    const auto s = g->cbm.find(m_rows[static_cast<std::size_t>(row)].schema);
    if (s == g->cbm.end()) return 0;
    const auto d = s->second.find(domain);
    return d == s->second.end() ? 0 : d->second;
}

quint64 AllocationModel::mask(int row) const
{
    if (row < 0 || row >= rowCount()) return 0;
    return derived(row).mask;
}

quint64 AllocationModel::maskIn(int row, int domain) const
{
    if (row < 0 || row >= rowCount()) return 0;
    return derived(row, domain).mask;
}

bool AllocationModel::hasPendingIn(int row, int domain) const
{
    return row >= 0 && row < rowCount() && derived(row, domain).pending;
}

AllocationModel::CellState AllocationModel::cellState(int row, int bit, int domain) const
{
    if (row < 0 || row >= rowCount()) return Unused;
    const Derived& d = derived(row, domain);
    if (!((d.mask >> bit) & 1u)) return Unused;
    if (d.pending && !d.invalid.isEmpty()) return Invalid;
    if (rowGroup(row)->exclusive) return Exclusive;
    return (d.others >> bit) & 1u ? Overlapping : Allocated;
}

bool AllocationModel::occupancyIn(int row, int domain, quint64* bytes) const
{
    const GroupAllocation* g = rowGroup(row);
    const CacheSchema* s = rowSchema(row);
    if (!g || !s || s->cacheName() != "L3") return false;
    const auto it = g->occupancyBytes.find(domain);
    if (it == g->occupancyBytes.end()) return false;
    if (bytes) *bytes = it->second;
    return true;
}

const AllocationModel::Derived& AllocationModel::derived(int row) const
{
    return derived(row, m_domain);
}

const AllocationModel::Derived& AllocationModel::derived(int row, int domain) const
{
    if (!m_derivedValid) {
        m_derived.clear();
        m_derivedValid = true;
    }
    std::vector<Derived>& all = m_derived[domain];
    if (all.empty() && rowCount() > 0) { // computed once per change and domain, not once per cell
        const int n = rowCount();
        all.assign(std::size_t(n), Derived {});
        for (int r = 0; r < n; ++r) {
            all[std::size_t(r)].mask = computeMask(r, domain);
            all[std::size_t(r)].pending
                = (r == m_previewRow && domain == m_domain) || m_pending.count(keyFor(r, domain)) != 0;
        }
        for (int r = 0; r < n; ++r) {
            Derived& d = all[std::size_t(r)];
            std::vector<rdt::PeerMask> peers;
            for (int o = 0; o < n; ++o) {
                if (o != r && rowGroup(o) != rowGroup(r)) {
                    d.others |= all[std::size_t(o)].mask;
                    peers.push_back(peerOf(o, all[std::size_t(o)].mask));
                }
            }
            if (d.pending) d.invalid = reasonFor(r, d.mask, peers);
        }
    }
    return all[std::size_t(row)];
}

quint64 AllocationModel::computeMask(int row, int domain) const
{
    if (row == m_previewRow && domain == m_domain) return m_previewMask;
    const auto it = m_pending.find(keyFor(row, domain));
    return it != m_pending.end() ? it->second : liveMaskIn(row, domain);
}

bool AllocationModel::hasPending(int row) const
{
    return row >= 0 && row < rowCount() && derived(row).pending;
}

void AllocationModel::setPreview(int row, quint64 m)
{
    if (!isEditable() || row < 0 || row >= rowCount()) return;
    if (row == m_previewRow && m == m_previewMask) return;
    m_previewRow = row;
    m_previewMask = m;
    emitAllChanged();
}

void AllocationModel::clearPreview()
{
    if (m_previewRow < 0) return;
    m_previewRow = -1;
    emitAllChanged();
}

rdt::PeerMask AllocationModel::peerOf(int row, quint64 m) const
{
    return { rowGroup(row)->group, rowSchema(row)->name, m, rowGroup(row)->exclusive };
}

std::vector<rdt::PeerMask> AllocationModel::peersOf(int row, const GroupAllocation& self) const
{
    // The kernel checks overlap against every other group's masks of the same cache, CODE and DATA alike.
    std::vector<rdt::PeerMask> peers;
    for (int r = 0; r < rowCount(); ++r) {
        if (r != row && &self != rowGroup(r)) peers.push_back(peerOf(r, mask(r)));
    }
    return peers;
}

QString AllocationModel::reasonFor(int row, quint64 m, const std::vector<rdt::PeerMask>& peers) const
{
    // The engine's own validator (rdt/AllocationRules.h): what it refuses is what shows red here.
    const auto problem = rdt::checkCacheMask(rowSchema(row)->rules(), m_domain, m, rowGroup(row)->exclusive, peers);
    return problem ? qs(problem->reason) : QString();
}

QString AllocationModel::invalidReason(int row, quint64 m) const
{
    const CacheSchema* s = rowSchema(row);
    if (!s) return {};
    if (m == mask(row) && hasPending(row)) return derived(row).invalid;
    return reasonFor(row, m, peersOf(row, *rowGroup(row)));
}

QString AllocationModel::rowError(int row) const
{
    if (row < 0 || row >= rowCount()) return {};
    if (hasPending(row)) {
        const QString why = invalidReason(row, mask(row));
        if (!why.isEmpty()) return why;
    }
    const auto it = m_errors.find(keyFor(row));
    return it == m_errors.end() ? QString() : it->second;
}

QString AllocationModel::rowLabel(int row) const
{
    const GroupAllocation* g = rowGroup(row);
    const CacheSchema* s = rowSchema(row);
    if (!g || !s) return {};
    const QString type = qs(s->cdpType());
    return type.isEmpty() ? qs(g->displayName()) : qs(g->displayName()) + QLatin1Char(' ') + type;
}

bool AllocationModel::isEditable() const
{
    return m_writer != nullptr && m_state.writable;
}

QString AllocationModel::readOnlyReason() const
{
    if (isEditable()) return {};
    if (!m_state.readOnlyReason.empty()) return qs(m_state.readOnlyReason);
    return m_writer ? QStringLiteral("the allocation backend is read-only")
                    : QStringLiteral("no allocation backend is connected");
}

void AllocationModel::setWriter(AllocationWriter* writer)
{
    m_writer = writer;
    emitEditable();
}

void AllocationModel::setUndoStack(QUndoStack* stack)
{
    m_undo = stack ? stack : m_ownUndo;
}

void AllocationModel::setApplyLive(bool live)
{
    m_applyLive = live;
    if (live && hasPendingEdits()) apply();
    Q_EMIT pendingChanged(); // views show or hide Apply/Revert
}

bool AllocationModel::setPendingMask(int row, quint64 m)
{
    if (!isEditable() || row < 0 || row >= rowCount()) return false;
    const Key key = keyFor(row);
    m_errors.erase(key);
    if (m == liveMask(row))
        m_pending.erase(key);
    else
        m_pending[key] = m;
    // Overlap colours of other rows depend on this row, so the whole table may change.
    emitAllChanged();
    Q_EMIT pendingChanged();
    if (m_applyLive && hasPendingEdits()) apply();
    return true;
}

void AllocationModel::clearPending(int row)
{
    if (row < 0 || row >= rowCount() || !m_pending.erase(keyFor(row))) return;
    emitAllChanged();
    Q_EMIT pendingChanged();
}

bool AllocationModel::hasPendingEdits() const
{
    return !m_pending.empty();
}

bool AllocationModel::pendingValid() const
{
    for (int r = 0; r < rowCount(); ++r) {
        if (hasPending(r) && !invalidReason(r, mask(r)).isEmpty()) return false;
    }
    return true;
}

bool AllocationModel::apply()
{
    if (!isEditable() || m_pending.empty()) return false;
    if (!pendingValid()) {
        emitAllChanged(); // the red cells and reasons are already shown; nothing is written
        return false;
    }
    std::vector<AllocationEdit> edits;
    for (const auto& [key, value] : m_pending) {
        const auto& [group, schema, domain] = key;
        AllocationEdit e { group, schema, domain, 0, value, true };
        for (const auto& g : m_state.groups) {
            if (g.group == group) {
                const auto s = g.cbm.find(schema);
                if (s != g.cbm.end() && s->second.count(domain)) e.oldValue = s->second.at(domain);
            }
        }
        edits.push_back(e);
    }
    m_pending.clear();
    m_rejected = false;
    // redo() runs inside push() and writes; a rejected command makes itself obsolete and the stack drops it.
    m_undo->push(new AllocationEditCommand(this, std::move(edits)));
    Q_EMIT pendingChanged();
    emitAllChanged();
    return !m_rejected;
}

void AllocationModel::revert()
{
    m_pending.clear();
    m_errors.clear();
    emitAllChanged();
    Q_EMIT pendingChanged();
}

void AllocationModel::storeValue(
    const std::string& group, const std::string& schema, int domain, std::uint64_t value, bool cache)
{
    for (auto& g : m_state.groups) {
        if (g.group != group) continue;
        if (cache)
            g.cbm[schema][domain] = value;
        else
            g.bandwidth[schema][domain] = static_cast<unsigned>(value);
    }
    m_errors.erase({ group, schema, domain });
    emitAllChanged();
    Q_EMIT stateChanged();
}

void AllocationModel::reportRejection(
    const std::string& group, const std::string& schema, int domain, const QString& message)
{
    const Key key { group, schema, domain };
    m_rejected = true;
    m_pending.erase(key);
    m_errors[key] = message;
    emitAllChanged();
    const int row = domain == m_domain ? rowFor(qs(group), qs(schema)) : -1;
    Q_EMIT editRejected(row, message);
    Q_EMIT stateChanged();
}

QString AllocationModel::errorFor(const std::string& group, const std::string& schema, int domain) const
{
    const auto it = m_errors.find({ group, schema, domain });
    return it == m_errors.end() ? QString() : it->second;
}

void AllocationModel::notifyWritten(const rdt::AllocationChanged& change)
{
    Q_EMIT allocationWritten(change);
}

void AllocationModel::emitAllChanged(bool headers)
{
    m_derivedValid = false;
    if (rowCount() > 0 && columnCount() > 0) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    if (headers && rowCount() > 0) Q_EMIT headerDataChanged(Qt::Vertical, 0, rowCount() - 1);
}

void AllocationModel::emitEditable()
{
    const bool e = isEditable();
    if (e != m_lastEditable || !e) {
        m_lastEditable = e;
        Q_EMIT editableChanged(e, readOnlyReason());
    }
}

int AllocationModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int AllocationModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid() || m_rows.empty()) return 0;
    const CacheSchema* s = m_state.cacheSchema(m_rows.front().schema);
    return s ? s->cbmLength : 0;
}

QVariant AllocationModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const int row = index.row();
    const int bit = index.column();
    const quint64 m = mask(row);
    const bool set = (m >> bit) & 1u;
    const GroupAllocation* g = rowGroup(row);
    const CacheSchema* s = rowSchema(row);
    switch (role) {
    case Qt::DisplayRole:
        return set ? QStringLiteral("1") : QStringLiteral("0");
    case Qt::ToolTipRole:
    case Qt::AccessibleDescriptionRole:
        return AllocationCellText(*this).toolTip(row, bit);
    case Qt::AccessibleTextRole:
        return cellAccessibleText(row, bit, m_domain);
    case CellStateRole:
        return cellState(row, bit, m_domain);
    case HardwareSharedRole:
        return bool((s->shareableBits >> bit) & 1u);
    case IoAllocRole:
        return bool((s->ioAllocMask(m_domain) >> bit) & 1u);
    case MaskRole:
        return m;
    case LiveMaskRole:
        return liveMask(row);
    case PendingRole:
        return hasPending(row);
    case OccupancyBytesRole:
    case OccupancyFractionRole: {
        const auto it = g->occupancyBytes.find(m_domain);
        if (it == g->occupancyBytes.end() || s->cacheName() != "L3") return {};
        if (role == OccupancyBytesRole) return quint64(it->second);
        return s->cacheBytes ? double(it->second) / double(s->cacheBytes) : 0.0;
    }
    case RowErrorRole:
        return rowError(row);
    case GroupRole:
        return qs(g->group);
    case SchemaRole:
        return qs(s->name);
    case ClosidRole:
        return g->closid;
    case ExternalChangeRole:
        return externalChangeIn(row, m_domain);
    default:
        return {};
    }
}

QString AllocationModel::stateText(CellState state)
{
    return AllocationCellText::stateText(state);
}

QString AllocationModel::cellAccessibleText(int row, int bit, int domain) const
{
    return AllocationCellText(*this).accessibleText(row, bit, domain);
}

QVariant AllocationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section >= columnCount()) return {};
        if (role == Qt::DisplayRole) return QString::number(section);
        if (role == Qt::ToolTipRole) return AllocationCellText(*this).columnToolTip(section);
        return {};
    }
    if (section < 0 || section >= rowCount()) return {};
    if (role == Qt::DisplayRole) return rowLabel(section);
    if (role == Qt::ToolTipRole) return AllocationCellText(*this).rowToolTip(section);
    return {};
}

QHash<int, QByteArray> AllocationModel::roleNames() const
{
    QHash<int, QByteArray> r = QAbstractTableModel::roleNames();
    r.insert(CellStateRole, "cellState");
    r.insert(HardwareSharedRole, "hardwareShared");
    r.insert(IoAllocRole, "ioAlloc");
    r.insert(MaskRole, "mask");
    r.insert(LiveMaskRole, "liveMask");
    r.insert(PendingRole, "pending");
    r.insert(OccupancyBytesRole, "occupancyBytes");
    r.insert(OccupancyFractionRole, "occupancyFraction");
    r.insert(RowErrorRole, "rowError");
    r.insert(GroupRole, "group");
    r.insert(SchemaRole, "schema");
    r.insert(ClosidRole, "closid");
    return r;
}
