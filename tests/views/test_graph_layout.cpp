// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/GraphvizLayout.h"

#include <QtTest>

#include <thread>

class TestGraphLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void callersAboveCallees();
    void splinesConnectTheirNodes();
    void badEdgesAreSkippedNotFatal();
    void concurrentLayoutsAreSerialized();
};

static LayoutGraph diamond()
{
    LayoutGraph g;
    g.nodes = { { "main", 80, 30 }, { "parse", 60, 30 }, { "eval", 60, 30 }, { "hash", 60, 30 } };
    g.edges = { { 0, 1 }, { 0, 2 }, { 1, 3 }, { 2, 3 } };
    return g;
}

void TestGraphLayout::callersAboveCallees()
{
    const LayoutResult r = layoutWithDot(diamond());
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.nodes.size(), std::size_t(4));
    // dot ranks a DAG top-down: main above parse/eval above hash (y grows downwards in our result).
    QVERIFY(r.nodes[0].center.y < r.nodes[1].center.y);
    QVERIFY(r.nodes[1].center.y < r.nodes[3].center.y);
    QCOMPARE(r.nodes[1].center.y, r.nodes[2].center.y);
    QVERIFY(r.nodes[1].center.x != r.nodes[2].center.x);
    QCOMPARE(r.nodes[0].widthPt, 80.0);
    QVERIFY(r.width >= 120.0 && r.height >= 90.0);
}

void TestGraphLayout::splinesConnectTheirNodes()
{
    const LayoutResult r = layoutWithDot(diamond());
    QVERIFY(r.ok());
    QCOMPARE(r.edgeSplines.size(), std::size_t(4));
    for (std::size_t i = 0; i < r.edgeSplines.size(); ++i) {
        const auto& pts = r.edgeSplines[i];
        QVERIFY(pts.size() >= 4);
        QCOMPARE((pts.size() - 1) % 3, std::size_t(0)); // a cubic B-spline: 1 + 3n control points
        const auto& from = r.nodes[static_cast<std::size_t>(diamond().edges[i].from)];
        // The spline starts at the caller's box border.
        QVERIFY(std::abs(pts.front().y - (from.center.y + from.heightPt / 2)) < 2.0);
    }
}

void TestGraphLayout::badEdgesAreSkippedNotFatal()
{
    LayoutGraph g = diamond();
    g.edges.push_back({ 0, 99 });
    g.edges.push_back({ -1, 2 });
    const LayoutResult r = layoutWithDot(g);
    QVERIFY(r.ok());
    QCOMPARE(r.edgeSplines.size(), std::size_t(6));
    QVERIFY(r.edgeSplines[4].empty());
    QVERIFY(r.edgeSplines[5].empty());
}

void TestGraphLayout::concurrentLayoutsAreSerialized()
{
    LayoutResult a, b;
    std::thread t1([&] { a = layoutWithDot(diamond()); });
    std::thread t2([&] { b = layoutWithDot(diamond()); });
    t1.join();
    t2.join();
    QVERIFY(a.ok() && b.ok());
    QCOMPARE(a.nodes[3].center.x, b.nodes[3].center.x);
}

QTEST_GUILESS_MAIN(TestGraphLayout)
#include "test_graph_layout.moc"
