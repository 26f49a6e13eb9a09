// SPDX-License-Identifier: GPL-3.0-or-later
#include "AllocationBandwidthModel.h"

#include "AllocationCommands.h"
#include "rdt/AllocationRules.h"
#include "rdt/RdtBackend.h"

#include <QColor>
#include <QGuiApplication>
#include <QPalette>

namespace {
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

bool isRegionBound(const BandwidthSchema& b)
{
    using rdt::api::BandwidthRole;
    return b.region >= 0
        && (b.role == BandwidthRole::RegionMin || b.role == BandwidthRole::RegionOpt
            || b.role == BandwidthRole::RegionMax);
}

/// The MIN, OPT and MAX schemas of `b`'s region when the state has all three; empty otherwise.
std::vector<const BandwidthSchema*> triple(const AllocationState& st, const BandwidthSchema& b)
{
    using rdt::api::BandwidthRole;
    if (!isRegionBound(b)) return {};
    std::vector<const BandwidthSchema*> out;
    for (auto role : { BandwidthRole::RegionMin, BandwidthRole::RegionOpt, BandwidthRole::RegionMax }) {
        const BandwidthSchema* s = st.bandwidthSchema(rdt::api::regionControlName(b.region, role));
        if (!s) return {};
        out.push_back(s);
    }
    return out;
}

/// "MB_REGION0": the entry a region's three bounds share in the control list.
std::string tripleName(int region)
{
    return "MB_REGION" + std::to_string(region);
}
} // namespace

AllocationBandwidthModel::AllocationBandwidthModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void AllocationBandwidthModel::setSourceModel(AllocationModel* model)
{
    if (m_source) disconnect(m_source, nullptr, this, nullptr);
    beginResetModel();
    m_source = model;
    m_schema = schemaNames().value(0);
    m_groups.clear();
    m_domains.clear();
    if (model) {
        for (const auto& g : model->state().groups)
            m_groups.push_back(g.group);
        m_domains = controlDomains();
        m_shown = currentValues();
        connect(model, &AllocationModel::stateChanged, this, &AllocationBandwidthModel::sourceChanged);
        connect(model, &AllocationModel::editableChanged, this, [this] {
            if (rowCount() && columnCount()) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        });
    }
    endResetModel();
}

void AllocationBandwidthModel::sourceChanged()
{
    std::vector<std::string> groups;
    for (const auto& g : m_source->state().groups)
        groups.push_back(g.group);
    const bool schemaGone = !schemaNames().contains(m_schema);
    if (groups != m_groups || controlDomains() != m_domains || schemaGone) {
        beginResetModel();
        m_groups = groups;
        if (schemaGone) m_schema = schemaNames().value(0);
        m_domains = controlDomains();
        endResetModel();
        m_shown = currentValues();
        return;
    }
    // Only cells whose value really changed: the schemata are re-read twice a second, and a dataChanged over a
    // range makes QAbstractItemView reload every open editor in it, which would throw away what the user is typing.
    const std::vector<ShownValue> now = currentValues();
    for (int r = 0; r < rowCount(); ++r) {
        for (int c = 0; c < columnCount(); ++c) {
            const std::size_t i = std::size_t(r) * std::size_t(columnCount()) + std::size_t(c);
            if (i >= m_shown.size() || i >= now.size() || !(m_shown[i] == now[i]))
                Q_EMIT dataChanged(index(r, c), index(r, c));
        }
    }
    m_shown = now;
}

std::vector<AllocationBandwidthModel::ShownValue> AllocationBandwidthModel::currentValues() const
{
    std::vector<ShownValue> out;
    for (int r = 0; r < rowCount(); ++r) {
        for (int c = 0; c < columnCount(); ++c)
            out.push_back({ value(r, c), data(index(r, c), Qt::DisplayRole).toString(), errorAt(r, c) });
    }
    return out;
}

QStringList AllocationBandwidthModel::schemaNames() const
{
    QStringList out;
    if (!m_source) return out;
    const AllocationState& st = m_source->state();
    for (const auto& b : st.bandwidths) {
        // A region's three bounds are one entry, edited together; a bound whose partners are missing stands alone.
        if (!triple(st, b).empty()) {
            if (b.role == rdt::api::BandwidthRole::RegionMin) out << qs(tripleName(b.region));
            continue;
        }
        out << qs(b.name);
    }
    return out;
}

void AllocationBandwidthModel::setSchema(const QString& name)
{
    if (name == m_schema || !schemaNames().contains(name)) return;
    beginResetModel();
    m_schema = name;
    m_domains = controlDomains();
    endResetModel();
    m_shown = currentValues();
}

const BandwidthSchema* AllocationBandwidthModel::bandwidthSchema() const
{
    if (!m_source) return nullptr;
    if (const BandwidthSchema* b = m_source->state().bandwidthSchema(m_schema.toStdString())) return b;
    const auto bounds = regionBounds();
    return bounds.empty() ? nullptr : bounds.front();
}

std::vector<const BandwidthSchema*> AllocationBandwidthModel::regionBounds() const
{
    if (!m_source) return {};
    const AllocationState& st = m_source->state();
    for (const auto& b : st.bandwidths)
        if (b.role == rdt::api::BandwidthRole::RegionMin && qs(tripleName(b.region)) == m_schema) return triple(st, b);
    return {};
}

std::vector<int> AllocationBandwidthModel::controlDomains() const
{
    if (!m_source) return {};
    const BandwidthSchema* b = bandwidthSchema();
    return b && !b->domains.empty() ? b->domains : m_source->state().domains;
}

QString AllocationBandwidthModel::budgetText() const
{
    const BandwidthSchema* b = bandwidthSchema();
    if (!b || b->budget == 0 || isTriple()) return {};
    QStringList parts;
    for (int c = 0; c < columnCount(); ++c) {
        std::uint64_t reserved = 0;
        int unknown = 0;
        for (int r = 0; r < rowCount(); ++r) {
            if (const auto v = heldValue(r, c, *b))
                reserved += *v;
            else
                ++unknown;
        }
        const rdt::ReservationUse use = rdt::reservationUse(b->budget, reserved);
        QString t = tr("domain %1: %2 of %3 blocks reserved, %4 still fit")
                        .arg(domain(c))
                        .arg(use.reserved)
                        .arg(use.budget)
                        .arg(use.room);
        if (use.over()) t += tr(" (over the budget)");
        if (unknown > 0) t += tr(" (%n group(s) unknown)", nullptr, unknown);
        parts << t;
    }
    return tr("%1 budget: %2").arg(qs(b->name), parts.join(QStringLiteral("; ")));
}

const GroupAllocation* AllocationBandwidthModel::group(int row) const
{
    if (!m_source || row < 0 || row >= int(m_groups.size()) || row >= int(m_source->state().groups.size()))
        return nullptr;
    return &m_source->state().groups[std::size_t(row)];
}

int AllocationBandwidthModel::domain(int column) const
{
    return column >= 0 && column < int(m_domains.size()) ? m_domains[std::size_t(column)] : -1;
}

std::optional<unsigned> AllocationBandwidthModel::heldValue(int row, int column, const BandwidthSchema& b) const
{
    const GroupAllocation* g = group(row);
    if (!g) return std::nullopt;
    const auto s = g->bandwidth.find(b.name);
    if (s == g->bandwidth.end()) return std::nullopt;
    const auto d = s->second.find(domain(column));
    return d == s->second.end() ? std::nullopt : std::optional<unsigned>(d->second);
}

unsigned AllocationBandwidthModel::value(int row, int column) const
{
    const BandwidthSchema* b = bandwidthSchema();
    if (!group(row) || !b) return 0;
    // An unset cap is unthrottled: the largest cap, or level 0 where higher values throttle. Other controls have
    // no such value: their cells say "unknown" (data()), and an edit starts from the least value.
    const unsigned unset = b->role == rdt::api::BandwidthRole::Limit && !b->higherThrottles ? b->maxValue : b->minValue;
    return heldValue(row, column, *b).value_or(unset);
}

QString AllocationBandwidthModel::tripleText(int row, int column) const
{
    const auto bounds = regionBounds();
    if (bounds.size() != 3) return {};
    QStringList parts;
    const char* labels[] = { "min", "opt", "max" };
    for (std::size_t i = 0; i < 3; ++i) {
        const auto v = heldValue(row, column, *bounds[i]);
        parts << QStringLiteral("%1 %2").arg(QLatin1String(labels[i]), v ? QString::number(*v) : tr("unknown"));
    }
    QString unit = qs(bounds.front()->unit);
    return parts.join(QStringLiteral(" \u00b7 "))
        + (unit.startsWith(QLatin1Char('/')) ? unit : QLatin1Char(' ') + unit);
}

QString AllocationBandwidthModel::errorAt(int row, int column) const
{
    const GroupAllocation* g = group(row);
    if (!g || !m_source) return {};
    std::vector<const BandwidthSchema*> schemas = regionBounds();
    if (schemas.empty() && bandwidthSchema()) schemas.push_back(bandwidthSchema());
    for (const BandwidthSchema* b : schemas)
        if (QString e = m_source->errorFor(g->group, b->name, domain(column)); !e.isEmpty()) return e;
    return {};
}

QString AllocationBandwidthModel::formatValue(const BandwidthSchema& schema, unsigned v)
{
    if (schema.unit == "GB/s") {
        // The one formatter of AMD's 1/8 GB/s values (rdt/BandwidthUnit.h), shared with the CLI.
        rdt::ResourceCaps r;
        r.name = schema.name;
        r.kind = rdt::ResourceKind::Bandwidth;
        r.bandwidthUnit = rdt::BandwidthUnit::EighthGBps;
        r.maxBandwidth = schema.maxValue;
        return QString::fromStdString(rdt::formatBandwidth(r, v));
    }
    if (schema.unit == "%") return QStringLiteral("%1 %").arg(v);
    if (schema.unit == "blocks" && v == 1) return QStringLiteral("1 block");
    if (schema.unit.rfind('/', 0) == 0) return QStringLiteral("%1%2").arg(v).arg(qs(schema.unit)); // "256/511"
    if (schema.unit == "level" || schema.unit == "delay" || schema.unit == "weight")
        return QStringLiteral("%1 %2").arg(qs(schema.unit)).arg(v);
    return QStringLiteral("%1 %2").arg(v).arg(qs(schema.unit));
}

bool AllocationBandwidthModel::setValue(int row, int column, unsigned requested)
{
    const GroupAllocation* g = group(row);
    const BandwidthSchema* b = bandwidthSchema();
    if (!g || !b || isTriple() || domain(column) < 0 || !m_source->isEditable()) return false;
    const unsigned effective = b->effectiveValue(requested);
    const unsigned old = value(row, column);
    if (effective == old) return true;
    // One undo history with the heatmap: the same stack and command type, marked as a bandwidth edit.
    AllocationEdit e { g->group, b->name, domain(column), old, effective, false };
    const std::string key = g->group;
    const QString name = qs(g->displayName());
    m_source->undoStack()->push(new AllocationEditCommand(m_source, { e }));
    const bool ok = m_source->errorFor(key, b->name, e.domain).isEmpty();
    const unsigned held = value(row, column); // read back after the write
    if (ok && held != requested) Q_EMIT valueRounded(name, e.domain, requested, held);
    return ok;
}

bool AllocationBandwidthModel::setTriple(int row, int column, unsigned min, unsigned opt, unsigned max)
{
    const GroupAllocation* g = group(row);
    const auto bounds = regionBounds();
    if (!g || bounds.size() != 3 || domain(column) < 0 || !m_source->isEditable()) return false;
    const unsigned wanted[] = { min, opt, max };
    std::vector<AllocationEdit> edits;
    bool changed = false;
    for (std::size_t i = 0; i < 3; ++i) {
        // A bound never read is written as asked; its "old" value for undo is the least the control takes.
        const unsigned old = heldValue(row, column, *bounds[i]).value_or(bounds[i]->minValue);
        changed = changed || old != wanted[i] || !heldValue(row, column, *bounds[i]);
        edits.push_back({ g->group, bounds[i]->name, domain(column), old, wanted[i], false });
    }
    if (!changed) return true;
    // One change: the engine's validator (checkRegionTriples) judges min <= opt <= max over the three together.
    m_source->undoStack()->push(AllocationEditCommand::together(m_source, std::move(edits)));
    return errorAt(row, column).isEmpty();
}

int AllocationBandwidthModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !bandwidthSchema() ? 0 : int(m_groups.size());
}

int AllocationBandwidthModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !bandwidthSchema() ? 0 : int(m_domains.size());
}

QVariant AllocationBandwidthModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const BandwidthSchema* b = bandwidthSchema();
    const GroupAllocation* g = group(index.row());
    if (!b || !g) return {};
    const unsigned v = value(index.row(), index.column());
    const QString err = errorAt(index.row(), index.column());
    const bool unknown
        = !isTriple() && b->role != rdt::api::BandwidthRole::Limit && !heldValue(index.row(), index.column(), *b);
    const QString shown = isTriple() ? tripleText(index.row(), index.column())
        : unknown                    ? tr("unknown")
                                     : formatValue(*b, v);
    switch (role) {
    case Qt::DisplayRole:
        return err.isEmpty() ? shown : shown + QStringLiteral("  (") + err + QLatin1Char(')');
    case Qt::EditRole:
    case ValueRole:
        if (isTriple()) {
            QVariantList bounds;
            for (const BandwidthSchema* s : regionBounds())
                bounds << heldValue(index.row(), index.column(), *s).value_or(s->minValue);
            return bounds;
        }
        return v;
    case Qt::AccessibleTextRole: // the row and column headers in words: a screen reader reads cells one by one
        return tr("%1, domain %2: %3 %4%5")
            .arg(qs(g->displayName()))
            .arg(domain(index.column()))
            .arg(m_schema, shown, err.isEmpty() ? QString() : tr(", refused: %1").arg(err));
    case Qt::ToolTipRole:
    case Qt::AccessibleDescriptionRole:
        return QStringLiteral("%1 %2:%3 = %4%5")
            .arg(qs(g->displayName()), m_schema)
            .arg(domain(index.column()))
            .arg(shown, err.isEmpty() ? QString() : QStringLiteral("\nrefused: ") + err);
    case Qt::ForegroundRole:
        // A lighter red on a dark palette (as colourscheme::errorText in the views) so the refusal stays legible.
        if (err.isEmpty()) return {};
        return QGuiApplication::palette().color(QPalette::Base).lightness() < 128 ? QColor(0xff, 0x7b, 0x72)
                                                                                  : QColor(0xd9, 0x35, 0x35);
    case RowErrorRole:
        return err;
    case GroupRole:
        return qs(g->group);
    case DomainRole:
        return domain(index.column());
    default:
        return {};
    }
}

bool AllocationBandwidthModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid)) return false;
    if (isTriple()) {
        const QVariantList bounds = value.toList();
        if (bounds.size() != 3) return false;
        return setTriple(index.row(), index.column(), bounds[0].toUInt(), bounds[1].toUInt(), bounds[2].toUInt());
    }
    bool ok = false;
    const uint v = value.toUInt(&ok);
    return ok && setValue(index.row(), index.column(), v);
}

Qt::ItemFlags AllocationBandwidthModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && m_source && m_source->isEditable()) f |= Qt::ItemIsEditable;
    return f;
}

QVariant AllocationBandwidthModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole) return {};
    if (orientation == Qt::Horizontal)
        return section >= 0 && section < columnCount() ? QVariant(tr("domain %1").arg(domain(section))) : QVariant();
    const GroupAllocation* g = group(section);
    return section < rowCount() && g ? QVariant(qs(g->displayName())) : QVariant();
}
