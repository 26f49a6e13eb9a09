// SPDX-License-Identifier: GPL-3.0-or-later
// openEngineSource fills the heatmap's way counts (AllocationStateOptions::ways) from CPUID.04H of the machine
// the source controls: the simulated CPU's own CPUID for "sim", so the L3 column says "of 11 ways" there too.
#include "EngineSource.h"
#include "models/EngineAllocation.h"

#include <QTest>

class TestEngineSourceWays : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void simulatedSourceReportsItsOwnWays()
    {
        auto bundle = openEngineSource("sim", "noisy-neighbour", 10.0);
        QVERIFY2(bundle, bundle ? "" : bundle.error().toString().c_str());
        auto state = bundle->readAllocation();
        QVERIFY2(state, state ? "" : state.error().toString().c_str());
        QVERIFY(!state->caches.empty());
        int checked = 0;
        for (const auto& c : state->caches) {
            QVERIFY2(c.ways > 0, c.name.c_str()); // the info line can say "N of W ways"
            QVERIFY(c.ways >= c.cbmLength); // a CBM bit stands for one way or more (SDM 20.19.4.2)
            ++checked;
        }
        QVERIFY(checked > 0);
    }
};

QTEST_GUILESS_MAIN(TestEngineSourceWays)
#include "test_engine_source_ways.moc"
