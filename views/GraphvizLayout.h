// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

/// Input and output of a Graphviz `dot` layout, in plain types so the layout can run on a worker thread and be
/// tested without widgets. Units are points (1/72 inch), y grows downwards (converted from Graphviz's y-up).
struct LayoutGraph {
    struct Node {
        std::string label;
        double widthPt = 72; ///< requested size; Graphviz may grow it to fit the label
        double heightPt = 36;
    };
    struct Edge {
        int from = 0;
        int to = 0;
    };
    std::vector<Node> nodes;
    std::vector<Edge> edges;
    std::string rankdir = "TB"; ///< "TB" (callers above callees) or "LR"
};

struct LayoutResult {
    struct Point {
        double x = 0;
        double y = 0;
    };
    struct NodeBox {
        Point center;
        double widthPt = 0;
        double heightPt = 0;
    };
    std::vector<NodeBox> nodes; ///< same order as LayoutGraph::nodes
    /// Per edge, the cubic B-spline control points as Graphviz gives them (1 + 3n points), then the arrow tip.
    std::vector<std::vector<Point>> edgeSplines;
    std::vector<Point> arrowTips; ///< end point of the arrow head per edge ({0,0} when none)
    double width = 0;
    double height = 0;
    std::string error; ///< non-empty when the layout failed
    bool ok() const { return error.empty(); }
};

/// Lays the graph out with libgvc's `dot` engine. Thread-safe (Graphviz keeps global state, so calls are
/// serialized internally); call it off the GUI thread for large graphs.
LayoutResult layoutWithDot(const LayoutGraph& graph);
