// SPDX-License-Identifier: GPL-3.0-or-later
#include "MbaEditor.h"
#include "ColourScheme.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <climits>

namespace {

/// Steps through the schema's allowed values instead of +-1.
class SnappingSpinBox : public QSpinBox {
public:
    SnappingSpinBox(const BandwidthSchema& schema, QWidget* parent)
        : QSpinBox(parent)
        , m_schema(schema)
    { }
    void stepBy(int steps) override
    {
        unsigned v = m_schema.effectiveValue(static_cast<unsigned>(value()));
        for (; steps > 0; --steps)
            v = m_schema.stepUp(v);
        for (; steps < 0; ++steps)
            v = m_schema.stepDown(v);
        setValue(static_cast<int>(std::min<unsigned>(v, INT_MAX)));
    }

private:
    BandwidthSchema m_schema;
};

/// The spin box of one value: the control's own range (its description's min..max for described, reserved and
/// weight controls), steps and unit.
void setUpSpin(QSpinBox* spin, const BandwidthSchema& schema)
{
    const bool described = schema.role != rdt::api::BandwidthRole::Limit || !schema.described.empty();
    // A cap's typing may go anywhere in the raw range: the label says what the hardware will make of it.
    spin->setRange(described ? static_cast<int>(std::min<unsigned>(schema.minValue, INT_MAX)) : 0,
        static_cast<int>(std::min<unsigned>(schema.maxValue, INT_MAX)));
    if (schema.unit == "%") spin->setSuffix(QStringLiteral(" %"));
    if (schema.unit == "GB/s") spin->setSuffix(QObject::tr(" \u00d7 1/8 GB/s"));
    if (schema.unit == "blocks") spin->setSuffix(QObject::tr(" blocks"));
    if (schema.unit.rfind('/', 0) == 0) spin->setSuffix(QString::fromStdString(schema.unit)); // "/511"
    spin->setKeyboardTracking(true);
}

class BandwidthDelegate : public QStyledItemDelegate {
public:
    explicit BandwidthDelegate(AllocationBandwidthModel* model, QObject* parent)
        : QStyledItemDelegate(parent)
        , m_model(model)
    { }
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const override
    {
        const BandwidthSchema* s = m_model->bandwidthSchema();
        if (!s) return nullptr;
        if (m_model->isTriple()) return new RegionTripleEditor(*s, parent);
        return new BandwidthValueEditor(*s, parent);
    }
    void updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option, const QModelIndex&) const override
    {
        // Wide enough for the typed value and the "-> 60 % will be written" note, even in a narrow column.
        QRect r = option.rect;
        r.setWidth(std::max(r.width(), editor->sizeHint().width()));
        if (QWidget* viewport = editor->parentWidget(); viewport && r.right() >= viewport->width())
            r.moveRight(std::max(r.width() - 1, viewport->width() - 1));
        editor->setGeometry(r);
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override
    {
        if (auto* t = qobject_cast<RegionTripleEditor*>(editor)) {
            const QVariantList v = index.data(Qt::EditRole).toList();
            if (v.size() == 3) t->setValues(v[0].toUInt(), v[1].toUInt(), v[2].toUInt());
            return;
        }
        static_cast<BandwidthValueEditor*>(editor)->setValue(index.data(Qt::EditRole).toUInt());
    }
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override
    {
        if (auto* t = qobject_cast<RegionTripleEditor*>(editor)) {
            const auto v = t->values();
            model->setData(index, QVariantList { v[0], v[1], v[2] }, Qt::EditRole);
            return;
        }
        model->setData(index, static_cast<BandwidthValueEditor*>(editor)->requested(), Qt::EditRole);
    }

private:
    AllocationBandwidthModel* m_model;
};

} // namespace

BandwidthValueEditor::BandwidthValueEditor(const BandwidthSchema& schema, QWidget* parent)
    : QWidget(parent)
    , m_schema(schema)
    , m_spin(new SnappingSpinBox(schema, this))
    , m_effective(new QLabel(this))
{
    m_spin->setObjectName(QStringLiteral("value"));
    m_effective->setObjectName(QStringLiteral("effective"));
    setUpSpin(m_spin, schema);
    auto* l = new QHBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_spin, 1);
    l->addWidget(m_effective);
    setFocusProxy(m_spin);
    setAutoFillBackground(true);
    connect(m_spin, &QSpinBox::valueChanged, this, &BandwidthValueEditor::updateEffective);
    updateEffective();
}

void BandwidthValueEditor::setValue(unsigned value)
{
    m_spin->setValue(static_cast<int>(std::min<unsigned>(value, INT_MAX)));
}

unsigned BandwidthValueEditor::requested() const
{
    return static_cast<unsigned>(std::max(0, m_spin->value()));
}

QString BandwidthValueEditor::effectiveText() const
{
    return m_effective->text();
}

void BandwidthValueEditor::updateEffective()
{
    const unsigned e = effective();
    // The value the hardware will hold, before anything is written: Enter writes exactly this.
    // AMD's raw values are eighths of a GB/s: always say what the number means.
    const bool rawNeedsUnit = m_schema.unit == "GB/s";
    m_effective->setText(e == requested()
            ? (rawNeedsUnit ? tr("= %1").arg(AllocationBandwidthModel::formatValue(m_schema, e)) : QString())
            : tr("\u2192 %1 will be written").arg(AllocationBandwidthModel::formatValue(m_schema, e)));
}

RegionTripleEditor::RegionTripleEditor(const BandwidthSchema& schema, QWidget* parent)
    : QWidget(parent)
{
    auto* l = new QHBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(2);
    const char* names[] = { "min", "opt", "max" };
    for (std::size_t i = 0; i < m_spins.size(); ++i) {
        m_spins[i] = new SnappingSpinBox(schema, this);
        m_spins[i]->setObjectName(QLatin1String(names[i]));
        m_spins[i]->setPrefix(QLatin1String(names[i]) + QLatin1Char(' '));
        setUpSpin(m_spins[i], schema);
        l->addWidget(m_spins[i], 1);
    }
    setFocusProxy(m_spins[0]);
    setAutoFillBackground(true);
}

void RegionTripleEditor::setValues(unsigned min, unsigned opt, unsigned max)
{
    const unsigned v[] = { min, opt, max };
    for (std::size_t i = 0; i < m_spins.size(); ++i)
        m_spins[i]->setValue(static_cast<int>(std::min<unsigned>(v[i], INT_MAX)));
}

std::array<unsigned, 3> RegionTripleEditor::values() const
{
    std::array<unsigned, 3> out {};
    for (std::size_t i = 0; i < m_spins.size(); ++i)
        out[i] = static_cast<unsigned>(std::max(0, m_spins[i]->value()));
    return out;
}

MbaEditor::MbaEditor(QWidget* parent)
    : QWidget(parent)
    , m_model(new AllocationBandwidthModel(this))
    , m_schemaBox(new QComboBox(this))
    , m_rules(new QLabel(this))
    , m_budget(new QLabel(this))
    , m_banner(new QLabel(this))
    , m_status(new QLabel(this))
    , m_note(new QLabel(this))
    , m_view(new QTableView(this))
{
    m_view->setModel(m_model);
    m_view->setItemDelegate(new BandwidthDelegate(m_model, this));
    m_view->setEditTriggers(
        QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);
    // Every domain's column at its content's width (never "... %"); spare width goes to the last one.
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setAccessibleName(tr("Memory bandwidth allocation per group and domain"));
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_banner->setWordWrap(true);
    colourscheme::followPalette(m_banner, colourscheme::warningBannerStyle);
    m_rules->setWordWrap(true);
    m_budget->setWordWrap(true);
    m_budget->setObjectName(QStringLiteral("budget"));
    m_budget->hide();
    m_status->setWordWrap(true);
    colourscheme::useErrorText(m_status);
    m_status->hide();
    m_note->setWordWrap(true);
    m_note->setObjectName(QStringLiteral("note"));
    m_note->hide();

    auto* top = new QHBoxLayout;
    auto* schemaLabel = new QLabel(tr("Bandwidth control:"), this);
    schemaLabel->setBuddy(m_schemaBox); // the combo box's accessible name
    top->addWidget(schemaLabel);
    top->addWidget(m_schemaBox);
    top->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_rules);
    layout->addWidget(m_budget);
    layout->addWidget(m_banner);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_note);

    connect(m_schemaBox, &QComboBox::currentTextChanged, this, [this](const QString& s) {
        m_model->setSchema(s);
        sync();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &MbaEditor::sync);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &MbaEditor::syncBudget);
    connect(m_model, &AllocationBandwidthModel::valueRounded, this,
        [this](const QString& group, int domain, unsigned requested, unsigned written) {
            const BandwidthSchema* b = m_model->bandwidthSchema();
            if (!b) return;
            m_note->setText(tr("%1 for %2, domain %3: %4 typed, %5 written (the hardware's steps)")
                                .arg(QString::fromStdString(b->name), group)
                                .arg(domain)
                                .arg(AllocationBandwidthModel::formatValue(*b, requested),
                                    AllocationBandwidthModel::formatValue(*b, written)));
            m_note->show();
        });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& i) {
        const BandwidthSchema* b = m_model->bandwidthSchema();
        if (i.isValid() && b) Q_EMIT explainRequested(b->name == "CBA" ? QStringLiteral("cba") : QStringLiteral("mba"));
    });
    sync();
}

void MbaEditor::setModel(AllocationModel* model)
{
    if (m_source) disconnect(m_source, nullptr, this, nullptr);
    m_source = model;
    m_model->setSourceModel(model);
    if (model) {
        connect(model, &AllocationModel::editableChanged, this, &MbaEditor::sync);
        connect(model, &AllocationModel::allocationWritten, this, [this](const rdt::AllocationChanged& c) {
            if (!m_model->bandwidthSchema() || c.resource != m_model->bandwidthSchema()->name) return;
            m_status->setVisible(!c.ok);
            m_status->setText(c.ok ? QString()
                                   : tr("The backend refused %1:%2=%3: %4")
                                         .arg(QString::fromStdString(c.resource))
                                         .arg(c.domain)
                                         .arg(QString::fromStdString(c.newValue), QString::fromStdString(c.message)));
        });
    }
    sync();
}

void MbaEditor::sync()
{
    const QSignalBlocker block(m_schemaBox);
    const QStringList names = m_model->schemaNames();
    m_schemaBox->clear();
    m_schemaBox->addItems(names);
    m_schemaBox->setCurrentText(m_model->schema());
    m_schemaBox->setEnabled(names.size() > 1);
    // A unit never breaks across lines ("GB/" and "s"): a word joiner after its slash, a no-break space before it.
    const BandwidthSchema* shown = m_model->bandwidthSchema();
    m_rules->setToolTip(shown && !shown->described.empty()
            ? tr("Described by the kernel: %1").arg(QString::fromStdString(shown->described))
            : QString());
    m_rules->setText(rulesText()
                         .replace(QStringLiteral("/s"), QStringLiteral("/\u2060s"))
                         .replace(QStringLiteral(" GB"), QStringLiteral("\u00a0GB"))
                         .replace(QStringLiteral(" MiBps"), QStringLiteral("\u00a0MiBps")));
    syncBudget();
    updateGeometry(); // the domain count sets the minimum width
    const bool editable = m_source && m_source->isEditable();
    m_banner->setVisible(!editable);
    m_banner->setText(readOnlyText());
    m_view->setEditTriggers(editable
            ? QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed
            : QAbstractItemView::NoEditTriggers);
}

void MbaEditor::syncBudget()
{
    const QString t = m_model->budgetText();
    m_budget->setText(t);
    m_budget->setVisible(!t.isEmpty());
}

QString MbaEditor::budgetText() const
{
    return m_budget->isHidden() ? QString() : m_budget->text();
}

QSize MbaEditor::minimumSizeHint() const
{
    // Group names plus two domain columns: a machine with many domains (40 L2 domains on a many-core part) scrolls
    // the table sideways instead of setting the window's minimum width.
    return QSize(std::max(columnsWidth(2), QWidget::minimumSizeHint().width()), QWidget::minimumSizeHint().height());
}

int MbaEditor::columnsWidth(int maxColumns) const
{
    const QFontMetrics fm = m_view->fontMetrics();
    int w = m_view->verticalHeader()->sizeHint().width() + 2 * m_view->frameWidth() + 12;
    const int columns = maxColumns < 0 ? m_model->columnCount() : std::min(maxColumns, m_model->columnCount());
    for (int c = 0; c < columns; ++c) {
        const int header = fm.horizontalAdvance(m_model->headerData(c, Qt::Horizontal).toString());
        w += std::max(header, fm.horizontalAdvance(QStringLiteral("100 %"))) + 16;
    }
    return w;
}

QSize MbaEditor::sizeHint() const
{
    // Every domain readable without scrolling, when there is room.
    return QSize(std::max(columnsWidth(-1), minimumSizeHint().width()) + 20, QWidget::sizeHint().height());
}

QString MbaEditor::noteText() const
{
    return m_note->isHidden() ? QString() : m_note->text();
}

QString MbaEditor::readOnlyText() const
{
    if (m_source && m_source->isEditable()) return {};
    return tr("Editing disabled: %1. Monitoring still works.")
        .arg(m_source ? m_source->readOnlyReason() : tr("no allocation data"));
}

QString MbaEditor::rulesText() const
{
    const BandwidthSchema* b = m_model->bandwidthSchema();
    if (!b) {
        // The engine says why when the machine's shape tells (MB hidden under CDP on Arm MPAM).
        if (m_source && !m_source->state().bandwidthAbsent.empty())
            return tr("No bandwidth allocation: MB is %1.")
                .arg(QString::fromStdString(m_source->state().bandwidthAbsent));
        return tr("No bandwidth allocation (MBA/CBA) on this source.");
    }
    const QString name = QString::fromStdString(b->name);
    // The description itself goes to the tooltip (describedText()): the rule line stays short enough to read.
    QString described = b->described.empty() ? QString() : tr(" Range and unit from info/resource_schemata.");
    if (!b->mode.empty()) {
        QStringList offered;
        for (const auto& m : b->modes)
            offered << QString::fromStdString(m);
        described += tr(" Mode %1 (info/mode offers %2).")
                         .arg(QString::fromStdString(b->mode), offered.join(QStringLiteral(", ")));
    }
    const QString range = tr("%1..%2").arg(
        AllocationBandwidthModel::formatValue(*b, b->minValue), AllocationBandwidthModel::formatValue(*b, b->maxValue));
    using rdt::api::BandwidthRole;
    if (m_model->isTriple())
        return tr("%1: min, opt and max per group and domain, %2, edited together; refused before writing unless "
                  "min \u2264 opt \u2264 max.%3")
            .arg(m_model->schema(), range, described);
    if (b->role == BandwidthRole::Reserved)
        return tr("%1: blocks reserved per group, %2; all groups together at most %3 per domain, checked before "
                  "writing.%4")
            .arg(name, range)
            .arg(b->budget)
            .arg(described);
    if (b->role == BandwidthRole::Weight)
        return tr("%1: weight in the bandwidth no group reserved, %2 (255 by default; 0 = no share).%3")
            .arg(name, range, described);
    if (b->role != BandwidthRole::Limit) // a region bound whose partners this source lacks
        return tr("%1: one bound of region %2, %3.%4").arg(name).arg(b->region).arg(range, described);
    if (b->unit == "MiBps")
        return tr("%1: a MiBps limit per CLOS (mba_MBps software controller); any value is applied as written.")
            .arg(name);
    if (b->unit == "GB/s")
        return tr("%1: an absolute limit per CLOS in steps of 1/8 GB/s, %2..%3 (AMD; not a percentage).")
            .arg(name, AllocationBandwidthModel::formatValue(*b, b->minValue),
                AllocationBandwidthModel::formatValue(*b, b->maxValue));
    QString t = tr("%1: %2..%3")
                    .arg(name, AllocationBandwidthModel::formatValue(*b, b->minValue),
                        AllocationBandwidthModel::formatValue(*b, b->maxValue));
    if (b->scale == BandwidthSchema::Scale::PowerOfTwo)
        t += tr(", non-linear: powers of two only; other values are rounded down (SDM 20.19.7.2).");
    else if (b->granularity > 1)
        t += b->rounding == BandwidthSchema::Rounding::Up
            ? tr(" in steps of %1; other values are rounded up to the next step (kernel bandwidth_gran).")
                  .arg(b->granularity)
            : tr(" in steps of %1; other values are rounded down (SDM 20.19.7.2).").arg(b->granularity);
    else
        t += QLatin1Char('.'); // every value in range is a step
    if (b->higherThrottles) {
        QString least = AllocationBandwidthModel::formatValue(*b, b->minValue);
        least[0] = least[0].toUpper(); // starts the sentence
        t += tr(" %1 is unthrottled; higher values throttle more.").arg(least);
    } else
        t += tr(" The cap is approximate and per CLOS; caps do not add up to 100 %.");
    if (b->sncNodes > 1) // resctrl.rst: SNC changes monitoring only; MBA is still per L3 domain
        t += tr(" SNC: a value applies to the whole L3 domain, all %1 of its nodes.").arg(b->sncNodes);
    return t + described;
}
