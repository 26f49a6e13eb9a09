// SPDX-License-Identifier: GPL-3.0-or-later
// The main window on a server-sized resctrl tree (tests/rdt/ServerTree.h: 4 L3 domains x 16 CLOS x 128 monitor
// groups with long names), through the real source factory and engine (issue #16 Tests): every domain's panel and
// mask fit, no group label or MB value is clipped, the monitor tree has a row per group, and the timeline's group
// list names every group in full.

#include "../rdt/ServerTree.h"
#include "AppOptions.h"
#include "MainWindow.h"
#include "SourceFactory.h"

#include "core/PosixFs.h"
#include "models/AllocationModel.h"
#include "models/MonitorTreeModel.h"
#include "rdt/ResctrlBackend.h"
#include "views/CacheWayHeatmap.h"
#include "views/HeatmapGrid.h"
#include "views/MbaEditor.h"
#include "views/TimelineGroupList.h"
#include "views/TimelineView.h"

#include <QHeaderView>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

class TestServerScale : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_root = m_dir.path().toStdString() + "/resctrl";
        m_groups = rdt::test::makeServerTree(RDTSCOPE_TEST_DATA "/resctrl/resctrl.full", m_root);
        auto backend = rdt::ResctrlBackend::open(std::make_shared<rdt::PosixFs>(m_root));
        QVERIFY2(backend.ok(), backend.ok() ? "" : backend.error().toString().c_str());
        auto listed = (*backend)->listGroups();
        QVERIFY(listed.ok());
        m_groupCount = static_cast<int>(listed->size());
        int control = 0;
        for (const auto& g : *listed)
            control += g.isControl ? 1 : 0;
        QCOMPARE(control, 16); // every CLOS the fixture's CPU enumerates
        QVERIFY(m_groupCount >= 16 + 128);

        AppOptions o;
        o.source = QStringLiteral("resctrl:") + QString::fromStdString(m_root);
        auto source = openSource(o);
        QVERIFY2(source.ok(), source.ok() ? "" : source.error().toString().c_str());
        m_window.setSource(std::move(source.value()));
        m_window.showView(QStringLiteral("rdt"));
        m_window.resize(1600, 1000);
        m_window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&m_window));
    }

    void monitorTreeHasARowPerGroup()
    {
        QTRY_COMPARE_WITH_TIMEOUT(m_window.monitorTree()->groupCount(), m_groupCount, 15000);
        QCOMPARE(m_window.monitorTree()->rowCount(), m_groupCount);
    }

    void heatmapShowsEveryDomainWithLabelsAndMasksUnclipped()
    {
        AllocationModel* model = m_window.allocationModel();
        QTRY_COMPARE_WITH_TIMEOUT(model->domains().size(), 4, 10000);
        HeatmapGrid* grid = m_window.heatmap()->grid();
        const HeatmapLayout& layout = grid->layout();
        QCOMPARE(layout.panels.size(), 4);
        // SERVER_SCALE_SHOT=FILE.png saves the window as this test sees it, to look at.
        if (qEnvironmentVariableIsSet("SERVER_SCALE_SHOT"))
            (void)m_window.grab().save(qEnvironmentVariable("SERVER_SCALE_SHOT"));
        const QFontMetrics fm = grid->fontMetrics();
        int l3Rows = 0;
        for (int r = 0; r < model->rowCount(); ++r) {
            ++l3Rows;
            const QString label = model->rowLabel(r);
            for (const auto& panel : layout.panels) {
                // The label column left of each line of panels, as HeatmapGridPaint draws it.
                const int labelWidth = layout.panels.front().left - HeatmapLayout::Margin - 8;
                QVERIFY2(fm.horizontalAdvance(label) <= labelWidth, qPrintable(label));
                const QRect first = grid->cellRect(r, 19, panel.domain);
                const QRect last = grid->cellRect(r, 0, panel.domain);
                QVERIFY2(grid->rect().contains(first) && grid->rect().contains(last),
                    qPrintable(QStringLiteral("domain %1 of %2 outside the grid: cells %3,%4 %5x%6, grid %7x%8 hfw %9")
                                   .arg(panel.domain)
                                   .arg(label)
                                   .arg(first.x())
                                   .arg(first.y())
                                   .arg(last.right())
                                   .arg(last.bottom())
                                   .arg(grid->width())
                                   .arg(grid->height())
                                   .arg(grid->heightForWidth(grid->width()))));
                // Any 20-bit mask, whatever its digits ("0xff800" is wider than "0xfffff" in a proportional font).
                for (const QChar d : QStringLiteral("0123456789abcdef")) {
                    const QString widest = QStringLiteral("0x") + QString(5, d);
                    QVERIFY2(
                        fm.horizontalAdvance(widest) <= layout.maskW && panel.maskLeft + layout.maskW <= grid->width(),
                        qPrintable(QStringLiteral("mask %1 of domain %2 cut").arg(widest).arg(panel.domain)));
                }
            }
        }
        QCOMPARE(l3Rows, 16);
    }

    void mbTableValuesAreNotClipped()
    {
        QTableView* table = m_window.mbaEditor()->view();
        QAbstractItemModel* mb = table->model();
        QCOMPARE(mb->rowCount(), 16);
        QCOMPARE(mb->columnCount(), 4);
        const QFontMetrics fm = table->fontMetrics();
        for (int r = 0; r < mb->rowCount(); ++r)
            for (int c = 0; c < mb->columnCount(); ++c) {
                const QString text = mb->index(r, c).data().toString();
                QVERIFY(!text.isEmpty());
                QVERIFY2(fm.horizontalAdvance(text) + 6 <= table->columnWidth(c),
                    qPrintable(QStringLiteral("'%1' in a %2 px column").arg(text).arg(table->columnWidth(c))));
            }
        // The row labels (group names) are whole too.
        for (int r = 0; r < mb->rowCount(); ++r) {
            const QString name = mb->headerData(r, Qt::Vertical).toString();
            QVERIFY2(fm.horizontalAdvance(name) <= table->verticalHeader()->width(), qPrintable(name));
        }
    }

    void timelineGroupListNamesEveryGroupInFull()
    {
        TimelineGroupList* list = m_window.timelines()->groupList();
        QTRY_COMPARE_WITH_TIMEOUT(list->rowCount(), m_groupCount, 15000);
        int longest = 0;
        for (int r = 0; r < list->rowCount(); ++r) {
            longest = std::max(longest, static_cast<int>(list->rowText(r).size()));
            QVERIFY2(!list->rowText(r).contains(QChar(0x2026)), qPrintable(list->rowText(r)));
        }
        QVERIFY(longest >= 40); // "tenant-1xx.svc/mon_groups/pod-...-replica": the long names are there
    }

private:
    QTemporaryDir m_dir;
    std::string m_root;
    rdt::test::ServerTreeGroups m_groups;
    int m_groupCount = 0;
    MainWindow m_window;
};

QTEST_MAIN(TestServerScale)
#include "test_server_scale.moc"
