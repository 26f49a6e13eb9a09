// SPDX-License-Identifier: GPL-3.0-or-later
#include "AllocationBandwidthModel.h"

#include "AllocationCommands.h"
#include "rdt/RdtBackend.h"

#include <QColor>
#include <QGuiApplication>
#include <QPalette>

namespace {
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
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
        m_domains = model->state().domains;
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
    if (groups != m_groups || m_source->state().domains != m_domains || schemaGone) {
        beginResetModel();
        m_groups = groups;
        m_domains = m_source->state().domains;
        if (schemaGone) m_schema = schemaNames().value(0);
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
    const BandwidthSchema* b = bandwidthSchema();
    for (int r = 0; r < rowCount(); ++r) {
        for (int c = 0; c < columnCount(); ++c)
            out.push_back(
                { value(r, c), b && group(r) ? m_source->errorFor(group(r)->group, b->name, domain(c)) : QString() });
    }
    return out;
}

QStringList AllocationBandwidthModel::schemaNames() const
{
    QStringList out;
    if (m_source) {
        for (const auto& b : m_source->state().bandwidths)
            out << qs(b.name);
    }
    return out;
}

void AllocationBandwidthModel::setSchema(const QString& name)
{
    if (name == m_schema || !schemaNames().contains(name)) return;
    beginResetModel();
    m_schema = name;
    endResetModel();
    m_shown = currentValues();
}

const BandwidthSchema* AllocationBandwidthModel::bandwidthSchema() const
{
    return m_source ? m_source->state().bandwidthSchema(m_schema.toStdString()) : nullptr;
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

unsigned AllocationBandwidthModel::value(int row, int column) const
{
    const GroupAllocation* g = group(row);
    const BandwidthSchema* b = bandwidthSchema();
    if (!g || !b) return 0;
    // Unset is unthrottled: the largest cap, or level 0 where higher values throttle.
    const unsigned unthrottled = b->higherThrottles ? b->minValue : b->maxValue;
    const auto s = g->bandwidth.find(b->name);
    if (s == g->bandwidth.end()) return unthrottled;
    const auto d = s->second.find(domain(column));
    return d == s->second.end() ? unthrottled : d->second;
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
    if (schema.unit == "level" || schema.unit == "delay" || schema.unit == "weight")
        return QStringLiteral("%1 %2").arg(qs(schema.unit)).arg(v);
    return QStringLiteral("%1 %2").arg(v).arg(qs(schema.unit));
}

bool AllocationBandwidthModel::setValue(int row, int column, unsigned requested)
{
    const GroupAllocation* g = group(row);
    const BandwidthSchema* b = bandwidthSchema();
    if (!g || !b || domain(column) < 0 || !m_source->isEditable()) return false;
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
    const QString err = m_source->errorFor(g->group, b->name, domain(index.column()));
    switch (role) {
    case Qt::DisplayRole:
        return err.isEmpty() ? formatValue(*b, v) : formatValue(*b, v) + QStringLiteral("  (") + err + QLatin1Char(')');
    case Qt::EditRole:
    case ValueRole:
        return v;
    case Qt::AccessibleTextRole: // the row and column headers in words: a screen reader reads cells one by one
        return tr("%1, domain %2: %3 %4%5")
            .arg(qs(g->displayName()))
            .arg(domain(index.column()))
            .arg(qs(b->name), formatValue(*b, v), err.isEmpty() ? QString() : tr(", refused: %1").arg(err));
    case Qt::ToolTipRole:
    case Qt::AccessibleDescriptionRole:
        return QStringLiteral("%1 %2:%3 = %4%5")
            .arg(qs(g->displayName()), qs(b->name))
            .arg(domain(index.column()))
            .arg(formatValue(*b, v), err.isEmpty() ? QString() : QStringLiteral("\nrefused: ") + err);
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
