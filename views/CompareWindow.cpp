// SPDX-License-Identifier: GPL-3.0-or-later
#include "CompareWindow.h"

#include "CompareGraphView.h"
#include "CompareOverlay.h"
#include "CompareTimelines.h"
#include "CompareWays.h"
#include "models/CompareDiffModel.h"
#include "models/CompareSession.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

using namespace rdt::compare;

namespace {

const Section kSections[] = { Section::Rdt, Section::Allocation, Section::Tma, Section::CallEdge, Section::HotBranch,
    Section::LatencySource, Section::LatencyRegion, Section::LatencyFunction };
const char* const kSectionTitles[] = { "RDT: occupancy and bandwidth", "Allocation", "TMA", "LBR call edges",
    "LBR hot branches", "Latency by data source", "Latency by memory region", "Latency by function" };

QString sideText(const char* name, const Profile& p)
{
    QString t = QStringLiteral("<b>%1</b>: %2 <i>(%3%4)</i>, %5 .. %6 s")
                    .arg(QLatin1String(name), QFileInfo(QString::fromStdString(p.path)).fileName().toHtmlEscaped(),
                        QString::fromStdString(p.kind), p.simulated ? QStringLiteral(", SIMULATED") : QString())
                    .arg(p.fromS, 0, 'f', 1)
                    .arg(p.toS, 0, 'f', 1);
    if (!p.machine.empty()) t += QStringLiteral(" &mdash; ") + QString::fromStdString(p.machine).toHtmlEscaped();
    return t;
}

} // namespace

CompareWindow::CompareWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_session(new CompareSession(this))
    , m_model(new CompareDiffModel(this))
    , m_header(new QLabel(this))
    , m_mismatches(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_sections(new QComboBox(this))
    , m_table(new QTableView(this))
    , m_timelines(new CompareTimelines(this))
    , m_align(new QComboBox(this))
    , m_ways(new CompareWays(this))
    , m_overlay(new CompareOverlay(this))
    , m_graph(new CompareGraphView(this))
{
    setWindowTitle(tr("rdtscope \u2014 compare"));
    QToolBar* bar = addToolBar(tr("Compare"));
    bar->addAction(tr("Swap A/B"), m_session, &CompareSession::swap)->setToolTip(tr("Make B the baseline"));
    bar->addAction(tr("Export diff as CSV\u2026"), this, &CompareWindow::exportCsv);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    m_header->setTextFormat(Qt::RichText);
    m_header->setWordWrap(true);
    m_mismatches->setWordWrap(true);
    m_mismatches->setTextFormat(Qt::RichText);
    layout->addWidget(m_header);
    layout->addWidget(m_mismatches);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    auto* tablePage = new QWidget(this);
    auto* tableLayout = new QVBoxLayout(tablePage);
    auto* sectionRow = new QHBoxLayout;
    sectionRow->addWidget(new QLabel(tr("Section:"), tablePage));
    for (const char* title : kSectionTitles)
        m_sections->addItem(tr(title));
    m_sections->addItem(tr("All sections"));
    sectionRow->addWidget(m_sections);
    sectionRow->addWidget(new QLabel(tr("largest change first; blue: lower in B, orange: higher in B"), tablePage));
    sectionRow->addStretch(1);
    tableLayout->addLayout(sectionRow);
    tableLayout->addWidget(m_table, 1);
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(m_sections, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_model->setSection(
            i >= 0 && i < static_cast<int>(std::size(kSections)) ? std::optional<Section>(kSections[i]) : std::nullopt);
        fitTableColumns();
    });
    m_model->setSection(kSections[0]); // what the combo box shows before anyone changes it
    m_tabs->addTab(tablePage, tr("Diff table"));

    auto* timelinePage = new QWidget(this);
    auto* timelineLayout = new QVBoxLayout(timelinePage);
    auto* alignRow = new QHBoxLayout;
    alignRow->addWidget(new QLabel(tr("Align at:"), timelinePage));
    alignRow->addWidget(m_align, 1);
    timelineLayout->addLayout(alignRow);
    timelineLayout->addWidget(m_timelines, 1);
    connect(m_align, &QComboBox::currentIndexChanged, this,
        [this](int i) { m_timelines->alignAt(i <= 0 ? QString() : m_align->itemText(i)); });
    m_tabs->addTab(timelinePage, tr("Timelines"));
    m_tabs->addTab(m_ways, tr("Cache ways"));
    m_tabs->addTab(m_overlay, tr("TMA && latency"));
    m_tabs->addTab(m_graph, tr("Branch graph"));

    connect(m_session, &CompareSession::changed, this, &CompareWindow::refresh);
    connect(m_session, &CompareSession::loaded, this, [this](bool ok, const QString& message) {
        statusBar()->showMessage(ok ? tr("Compared.") : tr("Cannot compare: %1").arg(message));
        if (!ok) m_header->setText(tr("<b>Cannot compare</b>: %1").arg(message.toHtmlEscaped()));
    });
    resize(1200, 800);
}

void CompareWindow::open(const QString& pathA, const QString& pathB)
{
    m_header->setText(tr("Comparing %1 with %2\u2026").arg(pathA.toHtmlEscaped(), pathB.toHtmlEscaped()));
    statusBar()->showMessage(tr("Reading both files\u2026"));
    m_session->load(pathA, pathB);
}

void CompareWindow::showSection(const QString& section)
{
    for (std::size_t i = 0; i < std::size(kSections); ++i)
        if (section == QLatin1String(sectionName(kSections[i]))) {
            m_sections->setCurrentIndex(static_cast<int>(i));
            return;
        }
    m_sections->setCurrentIndex(static_cast<int>(std::size(kSections)));
}

void CompareWindow::showPage(const QString& page)
{
    const QStringList pages = { QStringLiteral("table"), QStringLiteral("timelines"), QStringLiteral("ways"),
        QStringLiteral("overlay"), QStringLiteral("graph") };
    m_tabs->setCurrentIndex(std::max(0, static_cast<int>(pages.indexOf(page))));
}

void CompareWindow::alignAt(const QString& marker)
{
    const int i = m_align->findText(marker);
    m_align->setCurrentIndex(std::max(0, i));
}

void CompareWindow::refresh()
{
    const Comparison& c = m_session->comparison();
    m_header->setText(sideText("A", c.a) + QStringLiteral("<br>") + sideText("B", c.b));
    QString warnings;
    for (const auto& m : c.mismatches)
        warnings
            += QStringLiteral("&#9888; ") + QString::fromStdString(m.text).toHtmlEscaped() + QStringLiteral("<br>");
    m_mismatches->setText(warnings);
    m_mismatches->setVisible(!warnings.isEmpty());
    m_model->setComparison(c);
    fitTableColumns();
    m_timelines->setTimelines(m_session->timelineA(), m_session->timelineB());
    const QString aligned = m_align->currentIndex() > 0 ? m_align->currentText() : QString();
    {
        const QSignalBlocker block(m_align);
        m_align->clear();
        m_align->addItem(tr("the start of each recording"));
        m_align->addItems(m_timelines->commonMarkers());
        m_align->setCurrentIndex(std::max(0, m_align->findText(aligned)));
    }
    m_ways->setComparison(c);
    m_overlay->setComparison(c);
    m_graph->setComparison(c);
}

void CompareWindow::fitTableColumns()
{
    auto* header = m_table->horizontalHeader();
    for (int c = 0; c < CompareDiffModel::ColumnCount; ++c) {
        m_table->setColumnHidden(c, !m_model->columnUsed(c));
        header->setSectionResizeMode(c, QHeaderView::Interactive);
    }
    m_table->resizeColumnsToContents();
    const int stretch
        = m_model->columnUsed(CompareDiffModel::ColItem) ? CompareDiffModel::ColItem : CompareDiffModel::ColMetric;
    header->setSectionResizeMode(stretch, QHeaderView::Stretch);
}

void CompareWindow::exportCsv()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export diff as CSV"), QStringLiteral("diff.csv"), tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!m_session->exportCsv(path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(path));
}
