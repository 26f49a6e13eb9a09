// SPDX-License-Identifier: GPL-3.0-or-later
#include "CallStacksPage.h"

#include "models/PmuSession.h"
#include "views/CallGraphView.h"
#include "views/CallTreeView.h"
#include "views/FlameGraph.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

#include <optional>

namespace {

/// A tab that shows `content`, or `why` (the reason there are no call stacks) in its place.
QStackedWidget* withReason(QWidget* content, QLabel* why, QWidget* parent)
{
    auto* stack = new QStackedWidget(parent);
    why->setWordWrap(true);
    why->setAlignment(Qt::AlignCenter);
    why->setMargin(24);
    why->setTextInteractionFlags(Qt::TextSelectableByMouse);
    why->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // the text wraps; it never widens the window
    stack->addWidget(content);
    stack->addWidget(why);
    return stack;
}

QString samples(quint64 n)
{
    return QLocale().toString(static_cast<qulonglong>(n));
}

} // namespace

CallStacksPage::CallStacksPage(PmuSession* session, CallGraphView* graph, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_tabs(new QTabWidget(this))
    , m_topDown(new CallTreeView(CallTreeModel::Kind::TopDown, this))
    , m_bottomUp(new CallTreeView(CallTreeModel::Kind::BottomUp, this))
    , m_flame(new FlameGraph(this))
    , m_thread(new QComboBox(this))
    , m_cpu(new QComboBox(this))
    , m_from(new QDoubleSpinBox(this))
    , m_to(new QDoubleSpinBox(this))
    , m_clearRange(new QPushButton(tr("All"), this))
    , m_resetZoom(new QPushButton(tr("Reset zoom"), this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("callStacksPage"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Thread:"), this));
    m_thread->setObjectName(QStringLiteral("threadFilter"));
    m_thread->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_thread->setMinimumContentsLength(10);
    m_thread->setToolTip(tr("Keep the samples of one thread in the call graph, the trees and the flame graph"));
    bar->addWidget(m_thread, 2);
    bar->addWidget(new QLabel(tr("CPU:"), this));
    m_cpu->setObjectName(QStringLiteral("cpuFilter"));
    m_cpu->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_cpu->setMinimumContentsLength(6);
    m_cpu->setToolTip(tr("Keep the samples taken on one CPU in the call graph, the trees and the flame graph"));
    bar->addWidget(m_cpu, 1);
    bar->addSpacing(6);
    bar->addWidget(new QLabel(tr("Range:"), this));
    for (auto* box : { m_from, m_to }) {
        box->setDecimals(3);
        box->setSuffix(tr(" s"));
        box->setKeyboardTracking(false);
        box->setRange(0, 0);
        box->setToolTip(tr("Seconds on the window's time axis, as the RDT timelines count them; the same range as "
                           "the TMA plot's selection and the timeline's"));
    }
    m_from->setObjectName(QStringLiteral("rangeFrom"));
    m_to->setObjectName(QStringLiteral("rangeTo"));
    bar->addWidget(m_from);
    bar->addWidget(new QLabel(QStringLiteral("\u2013"), this));
    bar->addWidget(m_to);
    m_clearRange->setToolTip(tr("Every sample again (clears the range)"));
    bar->addWidget(m_clearRange);
    bar->addStretch(1);

    m_status->setObjectName(QStringLiteral("callStacksStatus"));
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // long texts must not widen the window

    auto* flamePage = new QWidget(this);
    auto* flameLayout = new QVBoxLayout(flamePage);
    flameLayout->setContentsMargins(0, 0, 0, 0);
    auto* flameBar = new QHBoxLayout;
    auto* flameHint = new QLabel(
        tr("Width: samples \u00b7 callers below, callees above \u00b7 click a frame to zoom in, Escape to zoom out"),
        flamePage);
    flameHint->setWordWrap(true);
    flameHint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    flameBar->addWidget(flameHint, 1);
    m_resetZoom->setEnabled(false);
    flameBar->addWidget(m_resetZoom);
    flameLayout->addLayout(flameBar);
    auto* scroll = new QScrollArea(flamePage);
    scroll->setWidget(m_flame);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    flameLayout->addWidget(scroll, 1);
    for (QWidget* content : { static_cast<QWidget*>(m_topDown), static_cast<QWidget*>(m_bottomUp), flamePage }) {
        m_reasons.append(new QLabel(this));
        m_reasons.back()->setObjectName(QStringLiteral("noCallStacksReason"));
        m_reasonStacks.append(withReason(content, m_reasons.back(), this));
    }

    m_tabs->setObjectName(QStringLiteral("callStackTabs"));
    m_tabs->addTab(graph, tr("Call graph"));
    m_tabs->addTab(m_reasonStacks[0], tr("Top-down"));
    m_tabs->addTab(m_reasonStacks[1], tr("Bottom-up"));
    m_tabs->addTab(m_reasonStacks[2], tr("Flame graph"));
    m_tabs->setTabToolTip(GraphTab, tr("Functions and the branches between them (LBR)"));
    m_tabs->setTabToolTip(TopDownTab, tr("From the outermost callers to the functions that ran"));
    m_tabs->setTabToolTip(BottomUpTab, tr("From the functions that ran out to their callers"));
    m_tabs->setTabToolTip(FlameTab, tr("The top-down tree drawn by width"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addWidget(m_tabs, 1);

    connect(m_thread, &QComboBox::currentIndexChanged, this, &CallStacksPage::applyFilters);
    connect(m_cpu, &QComboBox::currentIndexChanged, this, &CallStacksPage::applyFilters);
    auto applyRange = [this] {
        if (m_filling) return;
        m_session->setTimeRange(m_from->value(), m_to->value());
    };
    connect(m_from, &QDoubleSpinBox::valueChanged, this, applyRange);
    connect(m_to, &QDoubleSpinBox::valueChanged, this, applyRange);
    connect(m_clearRange, &QPushButton::clicked, m_session, &PmuSession::clearTimeRange);
    connect(m_resetZoom, &QPushButton::clicked, m_flame, &FlameGraph::resetZoom);
    connect(m_flame, &FlameGraph::zoomChanged, this, [this](std::int32_t node) { m_resetZoom->setEnabled(node > 0); });
    connect(m_session, &PmuSession::aggregated, this, &CallStacksPage::refresh);
    connect(m_session, &PmuSession::timeRangeChanged, this, &CallStacksPage::showRange);
    connect(m_session, &PmuSession::dataReset, this, [this] { m_flame->resetZoom(); });
    refresh();
}

void CallStacksPage::showTab(Tab tab)
{
    m_tabs->setCurrentIndex(tab);
}

QString CallStacksPage::statusText() const
{
    return m_status->text();
}

void CallStacksPage::showRange(double from, double to, bool active)
{
    m_filling = true;
    // The window's seconds (PmuSession::secondsOf): the run starts where the timelines place it.
    const double start = m_session->startSeconds(), end = std::max(m_session->endSeconds(), start);
    for (auto* box : { m_from, m_to })
        box->setRange(std::min(start, 0.0), end);
    // A running capture refreshes often: never overwrite a box the user is typing in.
    if (!m_from->hasFocus()) m_from->setValue(active ? from : start);
    if (!m_to->hasFocus()) m_to->setValue(active ? to : end);
    m_clearRange->setEnabled(active);
    m_filling = false;
}

void CallStacksPage::refillFilters()
{
    if (m_thread->view()->isVisible() || m_cpu->view()->isVisible()) return; // a list is open: refill it later
    const auto& tree = m_session->callTree();
    const auto& filter = m_session->stackFilter();
    m_filling = true;
    m_thread->clear();
    m_thread->addItem(tr("All threads"), -1);
    for (const auto& t : tree.threads) {
        const std::string comm = m_session->data().symbols->comm(t.pid);
        QString label = tr("TID %1").arg(t.tid);
        if (!comm.empty()) label += QStringLiteral(" \u00b7 ") + QString::fromStdString(comm);
        if (t.pid != t.tid) label += tr(" (PID %1)").arg(t.pid);
        label += tr(" \u2014 %1 samples").arg(samples(t.samples));
        m_thread->addItem(label, static_cast<qlonglong>(t.tid));
    }
    if (filter.tid && m_thread->findData(static_cast<qlonglong>(*filter.tid)) < 0)
        m_thread->addItem(
            tr("TID %1 \u2014 no samples in the range").arg(*filter.tid), static_cast<qlonglong>(*filter.tid));
    m_thread->setCurrentIndex(filter.tid ? m_thread->findData(static_cast<qlonglong>(*filter.tid)) : 0);

    m_cpu->clear();
    if (!tree.cpuKnown() && !tree.cpus.empty()) {
        m_cpu->addItem(tr("not recorded"), -1);
        m_cpu->setEnabled(false);
        m_cpu->setToolTip(
            tr("The samples carry no CPU (PERF_SAMPLE_CPU): perf record adds it with --sample-cpu or -a"));
    } else {
        m_cpu->setEnabled(true);
        m_cpu->setToolTip(tr("Keep the samples taken on one CPU in the call graph, the trees and the flame graph"));
        m_cpu->addItem(tr("All CPUs"), -1);
        for (const auto& c : tree.cpus)
            m_cpu->addItem(c.cpu == rdt::pmu::kUnknownCpu
                    ? tr("CPU unknown \u2014 %1 samples").arg(samples(c.samples))
                    : tr("CPU %1 \u2014 %2 samples").arg(c.cpu).arg(samples(c.samples)),
                static_cast<qlonglong>(c.cpu));
        if (filter.cpu && m_cpu->findData(static_cast<qlonglong>(*filter.cpu)) < 0)
            m_cpu->addItem(
                tr("CPU %1 \u2014 no samples in the range").arg(*filter.cpu), static_cast<qlonglong>(*filter.cpu));
        m_cpu->setCurrentIndex(filter.cpu ? m_cpu->findData(static_cast<qlonglong>(*filter.cpu)) : 0);
    }
    m_filling = false;
}

void CallStacksPage::applyFilters()
{
    if (m_filling) return;
    const auto value = [](QComboBox* box) -> std::optional<std::uint32_t> {
        const qlonglong v = box->currentData().toLongLong();
        if (v < 0 || !box->isEnabled()) return std::nullopt;
        return static_cast<std::uint32_t>(v);
    };
    m_session->setStackFilter(value(m_thread), value(m_cpu));
}

void CallStacksPage::refresh()
{
    const auto& tree = m_session->callTree();
    const auto& pmuData = m_session->data();
    refillFilters();
    showRange(m_session->rangeFrom(), m_session->rangeTo(), m_session->hasTimeRange()); // the data grows as it runs
    m_topDown->setReport(tree);
    m_bottomUp->setReport(tree);
    m_flame->setReport(tree);
    const QString why = QString::fromStdString(pmuData.stackSources.whyNone());
    const bool none = !why.isEmpty() && tree.allSamples == 0;
    for (int i = 0; i < m_reasonStacks.size(); ++i) {
        m_reasons[i]->setText(why);
        m_reasonStacks[i]->setCurrentIndex(none ? 1 : 0);
    }
    if (none) {
        m_status->setText(tr("No call stacks in this recording: the Top-down, Bottom-up and Flame graph tabs say why "
                             "and what would record them."));
        return;
    }
    const auto& filter = m_session->stackFilter();
    QString text = tr("%1 samples with call stacks").arg(samples(tree.samples));
    if (pmuData.kind == rdt::pmu::PmuSourceKind::Simulated) text = tr("Simulated: ") + text;
    if (filter.active()) text += tr(" of %1 in the range (thread/CPU filter on)").arg(samples(tree.allSamples));
    text += m_session->hasTimeRange()
        ? tr(", %1 s to %2 s").arg(m_session->rangeFrom(), 0, 'f', 3).arg(m_session->rangeTo(), 0, 'f', 3)
        : tr(", whole recording");
    if (pmuData.branchMode == rdt::pmu::BranchGraph::Mode::CallStack && !pmuData.branches.empty())
        text += tr(" \u00b7 LBR call stacks: as deep as the LBR (%1 frames at most here)").arg(tree.maxDepth);
    if (!pmuData.stacks.empty()) text += tr(" \u00b7 frame-pointer callchains");
    if (!m_session->timelineNote().isEmpty()) text += QStringLiteral(" \u00b7 ") + m_session->timelineNote();
    m_status->setText(text);
}
