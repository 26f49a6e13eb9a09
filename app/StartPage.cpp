// SPDX-License-Identifier: GPL-3.0-or-later
#include "StartPage.h"
#include "RecentConnections.h"
#include "RecentFiles.h"
#include "SimulatedMachinePicker.h"

#include "api/SourceSpec.h"
#include "lesson/LessonParser.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace {
constexpr int kRecentShown = 5;

/// Removes every widget a previous refreshRecent() put into `layout`.
void clearLayout(QVBoxLayout* layout)
{
    while (QLayoutItem* item = layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
}

QPushButton* linkButton(const QString& text, const QString& tip, QWidget* parent)
{
    auto* b = new QPushButton(text, parent);
    b->setFlat(true);
    b->setToolTip(tip);
    b->setStyleSheet(QStringLiteral("text-align: left"));
    return b;
}
} // namespace

StartPage::StartPage(QWidget* parent)
    : QWidget(parent)
    , m_hostStatus(new QLabel(this))
    , m_machine(new SimulatedMachinePicker(QString(), QString(), this))
    , m_treePath(new QLineEdit(this))
    , m_recentAgents(new QVBoxLayout)
    , m_recentFiles(new QVBoxLayout)
{
    setObjectName(QStringLiteral("startPage"));
    auto* outer = new QVBoxLayout(this);
    auto* heading = new QLabel(tr("<h2>What do you want to look at?</h2>"), this);
    outer->addWidget(heading);
    auto* grid = new QGridLayout;
    outer->addLayout(grid);
    outer->addStretch(1);

    QVBoxLayout* body = nullptr;
    grid->addWidget(section(tr("This machine, live"), &body), 0, 0);
    m_hostStatus->setWordWrap(true);
    m_hostStatus->setObjectName(QStringLiteral("hostStatus"));
    body->addWidget(m_hostStatus);
    auto* live = new QPushButton(tr("Open &this machine"), this);
    live->setObjectName(QStringLiteral("start.live"));
    live->setToolTip(tr("--source resctrl: this machine's mounted resctrl (when it cannot open, the reason is shown "
                        "and nothing else opens in its place)"));
    body->addWidget(live);
    connect(live, &QPushButton::clicked, this, [this] {
        // This machine and nothing else: `auto` would fall back to the simulator, which has its own button here.
        AppOptions o;
        o.source = QString::fromStdString(rdt::api::SourceSpec { rdt::api::SourceKind::Resctrl, {} }.text());
        Q_EMIT sourceChosen(o);
    });

    grid->addWidget(section(tr("A simulated machine"), &body), 0, 1);
    body->addWidget(m_machine);
    auto* simulate = new QPushButton(tr("&Simulate"), this);
    simulate->setObjectName(QStringLiteral("start.sim"));
    simulate->setToolTip(tr("--source sim: every figure is simulated, and labelled so"));
    body->addWidget(simulate);
    connect(simulate, &QPushButton::clicked, this, [this] {
        AppOptions o;
        o.source = QString::fromStdString(rdt::api::SourceSpec { rdt::api::SourceKind::Sim, {} }.text());
        o.preset = m_machine->preset();
        o.scenario = m_machine->scenario();
        Q_EMIT sourceChosen(o);
    });

    grid->addWidget(section(tr("A resctrl tree"), &body), 1, 0);
    body->addWidget(new QLabel(tr("The mounted /sys/fs/resctrl, or a copy of one (a folder):"), this));
    auto* treeRow = new QHBoxLayout;
    m_treePath->setObjectName(QStringLiteral("start.treePath"));
    m_treePath->setPlaceholderText(QStringLiteral("/sys/fs/resctrl"));
    treeRow->addWidget(m_treePath, 1);
    auto* browse = new QPushButton(tr("&Browse\u2026"), this);
    treeRow->addWidget(browse);
    body->addLayout(treeRow);
    auto* openTree = new QPushButton(tr("Open t&ree"), this);
    openTree->setObjectName(QStringLiteral("start.tree"));
    body->addWidget(openTree);
    body->addStretch(1);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("A resctrl tree"), m_treePath->text());
        if (!dir.isEmpty()) m_treePath->setText(dir);
    });
    auto openTreeNow = [this] {
        AppOptions o;
        o.source = QString::fromStdString(
            rdt::api::SourceSpec { rdt::api::SourceKind::Resctrl, m_treePath->text().trimmed().toStdString() }.text());
        Q_EMIT sourceChosen(o);
    };
    connect(openTree, &QPushButton::clicked, this, openTreeNow);
    connect(m_treePath, &QLineEdit::returnPressed, this, openTreeNow);

    grid->addWidget(section(tr("Another machine, through its agent"), &body), 1, 1);
    auto* connectButton = new QPushButton(tr("&Connect to an agent\u2026"), this);
    connectButton->setObjectName(QStringLiteral("start.connect"));
    connectButton->setToolTip(tr("ssh://[USER@]HOST, unix:PATH, or local (this machine through pkexec)"));
    body->addWidget(connectButton);
    connect(connectButton, &QPushButton::clicked, this, [this] { Q_EMIT connectRequested(QString()); });
    body->addLayout(m_recentAgents);
    body->addStretch(1);

    grid->addWidget(section(tr("A recording, a perf.data file or a CPUID dump"), &body), 2, 0);
    auto* fileRow = new QHBoxLayout;
    auto* openSession = new QPushButton(tr("Open a &recording\u2026"), this);
    openSession->setObjectName(QStringLiteral("start.session"));
    auto* openPerf = new QPushButton(tr("Open &perf.data\u2026"), this);
    openPerf->setObjectName(QStringLiteral("start.perf"));
    auto* openDump = new QPushButton(tr("Open a CP&UID dump\u2026"), this);
    openDump->setObjectName(QStringLiteral("start.cpuid"));
    openDump->setToolTip(tr("Describe another CPU: its caches, RDT and PMU as its CPUID says"));
    fileRow->addWidget(openSession);
    fileRow->addWidget(openPerf);
    fileRow->addWidget(openDump);
    fileRow->addStretch(1);
    body->addLayout(fileRow);
    connect(openSession, &QPushButton::clicked, this, [this] { Q_EMIT openSessionRequested(QString()); });
    connect(openPerf, &QPushButton::clicked, this, &StartPage::openPerfDataRequested);
    connect(openDump, &QPushButton::clicked, this, &StartPage::openCpuidDumpRequested);
    body->addLayout(m_recentFiles);
    body->addStretch(1);

    grid->addWidget(section(tr("A lesson (on a simulated machine)"), &body), 2, 1);
    for (const auto& name : rdt::lesson::builtinLessonNames()) {
        auto lesson = rdt::lesson::loadLesson(name);
        const QString id = QString::fromStdString(name);
        auto* b = linkButton(lesson ? QString::fromStdString(lesson->title) : id,
            lesson ? QString::fromStdString(lesson->conceptText) : QString(), this);
        b->setObjectName(QStringLiteral("start.lesson.") + id);
        body->addWidget(b);
        connect(b, &QPushButton::clicked, this, [this, id] { Q_EMIT lessonRequested(id); });
    }
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    refreshRecent();
}

QWidget* StartPage::section(const QString& title, QVBoxLayout** body)
{
    auto* box = new QGroupBox(title, this);
    *body = new QVBoxLayout(box);
    return box;
}

void StartPage::setHostStatus(const QString& rdtWhyNot)
{
    m_hostStatus->setText(rdtWhyNot.isEmpty() ? tr("RDT is available here: resctrl or the MSRs, live.")
                                              : tr("RDT cannot be used here: %1").arg(rdtWhyNot));
}

void StartPage::refreshRecent()
{
    clearLayout(m_recentAgents);
    const QStringList agents = RecentConnections::list().mid(0, kRecentShown);
    for (const QString& url : agents) {
        auto* b = linkButton(url, tr("Connect to the agent at %1").arg(url), this);
        m_recentAgents->addWidget(b);
        connect(b, &QPushButton::clicked, this, [this, url] { Q_EMIT connectRequested(url); });
    }
    clearLayout(m_recentFiles);
    const QStringList files = RecentFiles::list().mid(0, kRecentShown);
    for (const QString& path : files) {
        const QFileInfo info(path);
        auto* b
            = linkButton(info.fileName() + QStringLiteral("  (") + info.absolutePath() + QLatin1Char(')'), path, this);
        b->setEnabled(info.isFile());
        m_recentFiles->addWidget(b);
        connect(b, &QPushButton::clicked, this, [this, path] { Q_EMIT openRecentRequested(path); });
    }
}
