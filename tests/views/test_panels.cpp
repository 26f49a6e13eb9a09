// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/GroupModel.h"
#include "models/MachineModel.h"
#include "models/MonitorTreeModel.h"
#include "models/ReplayControl.h"
#include "views/CountText.h"
#include "views/DistinctElision.h"
#include "views/DistinctNameDelegate.h"
#include "views/ElidedLabel.h"
#include "views/ExplainPanel.h"
#include "views/GroupsPanel.h"
#include "views/MachinePanel.h"
#include "views/MonitorPanel.h"
#include "views/ProcessPickerDialog.h"
#include "views/ReplayBar.h"

#include "models/ProcessModel.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

namespace {
/// A GroupControl that behaves like resctrl for the calls the dock makes, including its errors.
class FakeGroups : public GroupControl {
public:
    std::vector<GroupDescription> groups { { "", false, { 1 }, "0-3" } };
    unsigned closidsLeft = 1;
    std::string readOnly;

    rdt::Result<std::vector<GroupDescription>> listGroups() override { return groups; }
    std::string whyReadOnly() const override { return readOnly; }
    rdt::Status createGroup(const std::string& path, bool monitorOnly) override
    {
        if (!monitorOnly && closidsLeft == 0) return rdt::errnoError(ENOSPC, "cannot create " + path, "Out of CLOSIDs");
        if (!monitorOnly) --closidsLeft;
        groups.push_back({ path, monitorOnly, {}, "" });
        return {};
    }
    rdt::Status removeGroup(const std::string& path) override
    {
        std::erase_if(groups, [&](const GroupDescription& g) { return g.path == path; });
        return {};
    }
    rdt::Status addTasks(const std::string& path, const std::vector<int>& pids) override
    {
        for (int pid : pids) {
            if (pid == 99999) return rdt::errnoError(ESRCH, "cannot move task 99999 into " + path);
        }
        for (auto& g : groups) {
            if (g.path == path) g.tasks.insert(g.tasks.end(), pids.begin(), pids.end());
        }
        return {};
    }
    rdt::Status setCpus(const std::string& path, const std::string& cpus) override
    {
        for (auto& g : groups) {
            if (g.path == path) g.cpus = cpus;
        }
        return {};
    }
};

class FakeReplay : public ReplayControl {
public:
    std::uint64_t duration = 100'000'000'000;
    std::uint64_t position = 0;
    bool isPlaying = false;
    double factor = 1;
    std::uint64_t durationNs() const override { return duration; }
    std::uint64_t positionNs() const override { return position; }
    bool playing() const override { return isPlaying; }
    void setPlaying(bool p) override { isPlaying = p; }
    double speed() const override { return factor; }
    void setSpeed(double s) override { factor = s; }
    void seek(std::uint64_t p) override { position = p; }
};

void selectRow(QTreeView* view, const QString& text)
{
    const auto matches = view->model()->match(
        view->model()->index(0, 0), Qt::DisplayRole, text, 1, Qt::MatchRecursive | Qt::MatchExactly);
    QVERIFY(!matches.isEmpty());
    view->setCurrentIndex(matches.first());
}
} // namespace

class TestPanels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Two groups that differ only in the middle of long paths never read the same in a narrow column.
    void narrowNamesStayDistinct()
    {
        const QFontMetrics metrics(QApplication::font());
        const QStringList names { QStringLiteral("goresctrl.Guaranteed/mon_groups/non_goresctrl.group"),
            QStringLiteral("goresctrl.Stale/mon_groups/non_goresctrl.group"), QStringLiteral("default"),
            QStringLiteral("goresctrl.Stale/mon_groups/goresctrl.group_live") };
        for (int width : { 60, 90, 120, 160 }) {
            const auto shown = distinctElisions(names, metrics, width);
            QCOMPARE(shown.size(), names.size());
            QSet<QString> texts;
            for (const auto& n : names)
                texts.insert(shown.value(n));
            QCOMPARE(texts.size(), names.size());
            // The plain middle elision of the first two is the same text: the rule is what keeps them apart.
            if (width == 120)
                QCOMPARE(metrics.elidedText(names[0], Qt::ElideMiddle, width),
                    metrics.elidedText(names[1], Qt::ElideMiddle, width));
        }
        QCOMPARE(distinctElisions(names, metrics, 2000).value(names[0]), names[0]); // room: whole names
        QCOMPARE(distinctElisions(names, metrics, 120).value(QStringLiteral("default")), QStringLiteral("default"));
    }

    // The status bar's reason is cut after a whole clause, never in the middle of a word or a path.
    void statusTextIsCutAtAClause()
    {
        const QFontMetrics metrics(QApplication::font());
        const QString text = QStringLiteral("Simulated: sim:mba \u2014 sim: simulated machine (scenario mba, preset "
                                            "epyc-genoa) requested with --source sim; all data is simulated");
        QCOMPARE(ElidedLabel::shortenAtClause(text, metrics, 5000), text);
        for (int room : { 200, 300, 450, 600 }) {
            const QString shown = ElidedLabel::shortenAtClause(text, metrics, room);
            QVERIFY2(metrics.horizontalAdvance(shown) <= room, qPrintable(shown));
            QVERIFY2(shown.endsWith(QStringLiteral(" \u2026")), qPrintable(shown));
            const QString kept = shown.chopped(2);
            QVERIFY(text.startsWith(kept));
            const QString next = text.mid(kept.size(), 2);
            QVERIFY2(next == QStringLiteral(" \u2014") || next == QStringLiteral("; ") || next == QStringLiteral(" (")
                    || next == QStringLiteral(", "),
                qPrintable(shown));
        }
    }

    // "1 load", never "1 loads" (issue #47's labels).
    void countsTakeTheirNounInTheRightNumber()
    {
        QCOMPARE(countText(1, QStringLiteral("load"), QStringLiteral("loads")), QStringLiteral("1 load"));
        QCOMPARE(countText(0, QStringLiteral("load"), QStringLiteral("loads")), QStringLiteral("0 loads"));
        QCOMPARE(countText(2, QStringLiteral("sample"), QStringLiteral("samples")), QStringLiteral("2 samples"));
    }

    void everyExplainTextNamesItsSdmSection()
    {
        const QStringList ids = ExplainPanel::concepts();
        QVERIFY(ids.size() >= 15);
        for (const char* needed : { "llc-occupancy", "mbm-total", "mbm-local", "mbm-remote", "counter-wrap", "rmid",
                 "clos", "closid0", "cat", "cdp", "shareable-bits", "mba", "cba", "allocation-change" })
            QVERIFY2(ids.contains(QString::fromLatin1(needed)), needed);
        const QRegularExpression sdm(QStringLiteral("\\*\\*SDM section\\.\\*\\* .*2[0-2]\\.[0-9]+"));
        for (const QString& id : ids) {
            const QString text = ExplainPanel::conceptText(id);
            QVERIFY2(text.startsWith(QStringLiteral("### ")) && !text.contains(QStringLiteral("\n# ")), qPrintable(id));
            if (id.endsWith(QStringLiteral("-amd"))) {
                // An AMD text cites AMD's specification, never Intel's SDM sections or CPUID.10H's Intel layout.
                QVERIFY2(text.contains(QStringLiteral("Platform Quality of Service Extensions")), qPrintable(id));
                QVERIFY2(!text.contains(QStringLiteral("SDM")), qPrintable(id));
                continue;
            }
            QVERIFY2(sdm.match(text).hasMatch(), qPrintable(id + QStringLiteral(" has no SDM section")));
        }
        QVERIFY(ExplainPanel::conceptText(QStringLiteral("../etc/passwd")).isEmpty());
    }

    // Issue #47 item 4: on an AMD machine the Explain panel speaks AMD's terms where it has them, Intel's elsewhere.
    void theVendorsOwnTextComesFirst()
    {
        ExplainPanel explain;
        QVERIFY(explain.showConcept(QStringLiteral("mba")));
        QVERIFY(explain.markdown().contains(QStringLiteral("SDM section")));
        explain.setVendorVariant(QStringLiteral("amd"));
        QCOMPARE(explain.currentConcept(), QStringLiteral("mba"));
        QVERIFY2(explain.markdown().contains(QStringLiteral("1/8 GB/s")), qPrintable(explain.markdown()));
        QVERIFY(!explain.markdown().contains(QStringLiteral("SDM section")));
        QVERIFY(explain.showConcept(QStringLiteral("cat")));
        QVERIFY(explain.markdown().contains(QStringLiteral("CCX")));
        QVERIFY(explain.showConcept(QStringLiteral("rmid"))); // no AMD text: the common one
        QVERIFY(explain.markdown().contains(QStringLiteral("SDM section")));
        explain.setVendorVariant(QString());
        QVERIFY(explain.markdown().contains(QStringLiteral("SDM section")));
    }

    void machinePanelSelectionExplains()
    {
        MachineModel model;
        MachinePanel panel(&model);
        ExplainPanel explain;
        QObject::connect(&panel, &MachinePanel::capabilitySelected, &explain, &ExplainPanel::showCapability);
        model.setRows(
            { { QStringLiteral("RDT monitoring"), QStringLiteral("MBM counter width"), QStringLiteral("24 bits"), true,
                  QStringLiteral("CPUID.(EAX=0FH,ECX=1):EAX[7:0]"), QStringLiteral("20.18.5.2"), {} },
                { QStringLiteral("Cache allocation"), QStringLiteral("L3 shareable bits"), QStringLiteral("0x600"),
                    true, QStringLiteral("CPUID.(EAX=10H,ECX=1):EBX"), QStringLiteral("20.19.4.2"), {} },
                { QStringLiteral("Cache allocation"), QStringLiteral("L3 CDP"), {}, false,
                    QStringLiteral("CPUID.(EAX=10H,ECX=1):ECX[2]"), QStringLiteral("20.19.5"),
                    QStringLiteral("not GenuineIntel") } });
        QVERIFY(panel.view()->isExpanded(panel.view()->model()->index(0, 0)));
        selectRow(panel.view(), QStringLiteral("MBM counter width"));
        QCOMPARE(explain.currentConcept(), QStringLiteral("counter-wrap"));
        QVERIFY(explain.markdown().contains(QStringLiteral("20.18.5.2")));
        selectRow(panel.view(), QStringLiteral("L3 shareable bits"));
        QCOMPARE(explain.currentConcept(), QStringLiteral("shareable-bits"));
        selectRow(panel.view(), QStringLiteral("L3 CDP"));
        QCOMPARE(explain.currentConcept(), QStringLiteral("cdp"));
        QVERIFY(explain.markdown().contains(QStringLiteral("not GenuineIntel")));
        QVERIFY(!explain.showConcept(QStringLiteral("no-such-thing")));
    }

    void groupsDockCreatesAndReportsErrors()
    {
        GroupModel model;
        GroupsPanel panel(&model);
        FakeGroups backend;
        panel.setControl(&backend);
        QCOMPARE(model.rowCount(), 1);
        QVERIFY(panel.readOnlyText().isEmpty());
        QVERIFY(panel.createGroup(QStringLiteral("streamer"), false));
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(!panel.createGroup(QStringLiteral("victim"), false));
        QVERIFY2(panel.errorText().contains(QStringLiteral("Out of CLOSIDs")), qPrintable(panel.errorText()));
        QVERIFY(!panel.createGroup(QStringLiteral("a/b"), false));

        selectRow(panel.view(), QStringLiteral("streamer"));
        QVERIFY(panel.createGroup(QStringLiteral("m1"), true));
        QCOMPARE(backend.groups.back().path, std::string("streamer/mon_groups/m1"));
        QVERIFY(panel.errorText().isEmpty());
        selectRow(panel.view(), QStringLiteral("streamer"));
        QVERIFY(panel.addTasks({ 42, 43 }));
        QCOMPARE(backend.groups[1].tasks, (std::vector<int> { 42, 43 }));
        QVERIFY(!panel.addTasks({ 99999 }));
        QVERIFY(panel.errorText().contains(QStringLiteral("99999")));
        selectRow(panel.view(), QStringLiteral("streamer"));
        QVERIFY(panel.setCpus(QStringLiteral(" 2-3 ")));
        QCOMPARE(backend.groups[1].cpus, std::string("2-3"));
        selectRow(panel.view(), QStringLiteral("default"));
        QVERIFY(!panel.removeSelected()); // the default group stays
        selectRow(panel.view(), QStringLiteral("m1"));
        QVERIFY(panel.removeSelected());
        QCOMPARE(backend.groups.size(), std::size_t(2));
    }

    void groupsDockKeepsTasksAndCpusInView()
    {
        // The 4-domain fixture tree's names ("goresctrl.predefined_group_empty" under goresctrl.Guaranteed) in the
        // default ~300 px dock: Tasks and CPUs stay in view, the names are elided.
        GroupModel model;
        GroupsPanel panel(&model);
        FakeGroups backend;
        backend.groups.push_back({ "goresctrl.Guaranteed", false, { 7 }, "0-3" });
        backend.groups.push_back(
            { "goresctrl.Guaranteed/mon_groups/goresctrl.predefined_group_empty", true, { 8, 9 }, "" });
        panel.setControl(&backend);
        panel.resize(300, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QHeaderView* header = panel.view()->header();
        const int viewport = panel.view()->viewport()->width();
        for (int column : { GroupModel::TasksColumn, GroupModel::CpusColumn }) {
            const int right = header->sectionViewportPosition(column) + header->sectionSize(column);
            QVERIFY2(right <= viewport,
                qPrintable(QStringLiteral("column %1 ends at %2 of %3").arg(column).arg(right).arg(viewport)));
        }
        QVERIFY(header->sectionSize(GroupModel::NameColumn) >= 60);
    }

    void groupsDockReadOnlyShowsReason()
    {
        GroupModel model;
        GroupsPanel panel(&model);
        FakeGroups backend;
        backend.readOnly = "not root: /sys/fs/resctrl is read-only to you";
        panel.setControl(&backend);
        QVERIFY(panel.readOnlyText().contains(QStringLiteral("not root")));
        QVERIFY(!panel.createGroup(QStringLiteral("x"), false));
        QVERIFY(panel.errorText().contains(QStringLiteral("not root")));
        QCOMPARE(backend.groups.size(), std::size_t(1));
        panel.setControl(nullptr);
        QVERIFY(panel.readOnlyText().contains(QStringLiteral("No RDT backend")));
    }

    void processPickerFilters()
    {
        QTemporaryDir dir;
        for (const auto& [pid, comm] :
            { std::pair { "10", "stream" }, std::pair { "11", "victim-db" }, std::pair { "12", "stream-helper" } }) {
            QVERIFY(QDir(dir.path()).mkpath(QString::fromLatin1(pid)));
            QFile f(dir.filePath(QString::fromLatin1(pid) + QStringLiteral("/comm")));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(comm) + '\n');
        }
        ProcessPickerDialog picker(dir.path());
        QSignalSpy refreshed(picker.model(), &ProcessModel::refreshed);
        QVERIFY(refreshed.wait(5000));
        QCOMPARE(picker.view()->model()->rowCount(), 3);
        picker.setFilter(QStringLiteral("stream"));
        QCOMPARE(picker.view()->model()->rowCount(), 2);
        picker.view()->selectAll();
        QCOMPARE(picker.selectedPids(), (QList<int> { 10, 12 }));
        picker.setFilter(QStringLiteral("user:nobody-here"));
        QCOMPARE(picker.view()->model()->rowCount(), 0);
    }

    void replayBarDrivesControl()
    {
        ReplayBar bar;
        QVERIFY(bar.isHidden());
        FakeReplay replay;
        replay.position = 25'000'000'000;
        bar.setControl(&replay);
        QVERIFY(!bar.isHidden());
        auto* slider = bar.findChild<QSlider*>();
        QVERIFY(slider);
        QCOMPARE(slider->value(), 2500);
        QSignalSpy seeked(&bar, &ReplayBar::seeked);
        slider->setValue(5000);
        Q_EMIT slider->sliderReleased();
        QCOMPARE(seeked.count(), 1);
        QCOMPARE(replay.position, std::uint64_t(50'000'000'000));
    }
    // The Monitor dock at its default width on a server's long group paths (the 4-domain fixture tree's
    // "goresctrl.Guaranteed/mon_groups/..."): LLC occupancy and total bandwidth stay in view, the paths are elided;
    // a wider dock gives the paths their room back.
    void monitorDockKeepsFiguresInView()
    {
        MonitorTreeModel model;
        MonitorPanel panel(&model);
        rdt::RdtSampleBatch batch;
        for (const char* g : { "goresctrl.Guaranteed/mon_groups/goresctrl.predefined_group_empty",
                 "goresctrl.Stale/mon_groups/non_goresctrl.group", "web" }) {
            for (int d = 0; d < 4; ++d) {
                rdt::RdtSample s;
                s.group = g;
                s.domain = d;
                s.occupancyBytes = 3u << 20;
                s.mbmTotalBps = 1.5e9;
                batch.samples.push_back(s);
            }
        }
        model.update(batch);
        panel.resize(300, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTreeView* view = panel.view();
        QHeaderView* header = view->header();
        const int viewport = view->viewport()->width();
        for (int column : { MonitorTreeModel::OccupancyColumn, MonitorTreeModel::TotalColumn }) {
            const int right = header->sectionViewportPosition(column) + header->sectionSize(column);
            QVERIFY2(right <= viewport,
                qPrintable(QStringLiteral("column %1 ends at %2 of %3").arg(column).arg(right).arg(viewport)));
        }
        QVERIFY(
            header->visualIndex(MonitorTreeModel::DomainsColumn) > header->visualIndex(MonitorTreeModel::TotalColumn));
        const int narrow = header->sectionSize(MonitorTreeModel::GroupColumn);
        QVERIFY(narrow >= 80);
        // No two groups drawn alike in the narrow column.
        const auto* names
            = qobject_cast<DistinctNameDelegate*>(view->itemDelegateForColumn(MonitorTreeModel::GroupColumn));
        QVERIFY(names);
        QSet<QString> drawn;
        for (int r = 0; r < model.rowCount(); ++r)
            drawn.insert(names->shownNames().value(model.index(r, 0).data().toString()));
        QCOMPARE(drawn.size(), model.rowCount());

        panel.resize(900, 400);
        QTRY_VERIFY(view->viewport()->width() > 800);
        QTRY_VERIFY(header->sectionSize(MonitorTreeModel::GroupColumn) > narrow);
        const QString longest = model.index(0, 0).data().toString().size() > 20 ? model.index(0, 0).data().toString()
                                                                                : model.index(1, 0).data().toString();
        QVERIFY(header->sectionSize(MonitorTreeModel::GroupColumn) >= view->fontMetrics().horizontalAdvance(longest));
    }
};

QTEST_MAIN(TestPanels)
#include "test_panels.moc"
