// SPDX-License-Identifier: GPL-3.0-or-later
#include "GraphvizLayout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <graphviz/types.h>

#include <cstdio>
#include <mutex>
#include <string>

namespace {
std::mutex& graphvizMutex()
{
    static std::mutex m; // libcgraph and libgvc keep global state: one layout at a time.
    return m;
}

// agsafeset takes char*; Graphviz does not modify these strings.
void setAttr(void* obj, const char* name, const std::string& value, const char* fallback)
{
    agsafeset(obj, const_cast<char*>(name), const_cast<char*>(value.c_str()), const_cast<char*>(fallback));
}

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", v);
    return buf;
}
}

LayoutResult layoutWithDot(const LayoutGraph& graph)
{
    LayoutResult result;
    std::lock_guard lock(graphvizMutex());
    GVC_t* gvc = gvContext();
    if (!gvc) {
        result.error = "Graphviz could not create a context";
        return result;
    }
    Agraph_t* g = agopen(const_cast<char*>("g"), Agdirected, nullptr);
    setAttr(g, "rankdir", graph.rankdir, "TB");
    setAttr(g, "splines", "spline", "");
    setAttr(g, "nodesep", "0.3", "");
    setAttr(g, "ranksep", "0.5", "");

    std::vector<Agnode_t*> nodes;
    nodes.reserve(graph.nodes.size());
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        const auto& n = graph.nodes[i];
        Agnode_t* node = agnode(g, const_cast<char*>(("n" + std::to_string(i)).c_str()), 1);
        setAttr(node, "shape", "box", "ellipse");
        setAttr(node, "fixedsize", "true", "false");
        setAttr(node, "width", number(n.widthPt / 72.0), "0.75");
        setAttr(node, "height", number(n.heightPt / 72.0), "0.5");
        setAttr(node, "label", "", "\\N"); // labels are drawn by the view; sizes come from the request
        nodes.push_back(node);
    }
    std::vector<Agedge_t*> edges;
    for (const auto& e : graph.edges) {
        if (e.from < 0 || e.to < 0 || static_cast<std::size_t>(e.from) >= nodes.size()
            || static_cast<std::size_t>(e.to) >= nodes.size()) {
            edges.push_back(nullptr);
            continue;
        }
        edges.push_back(
            agedge(g, nodes[static_cast<std::size_t>(e.from)], nodes[static_cast<std::size_t>(e.to)], nullptr, 1));
    }

    if (gvLayout(gvc, g, "dot") != 0) {
        result.error = "Graphviz dot layout failed (is the dot layout plugin installed? run `dot -c` as root)";
        agclose(g);
        gvFreeContext(gvc);
        return result;
    }
    const boxf bb = GD_bb(g);
    result.width = bb.UR.x - bb.LL.x;
    result.height = bb.UR.y - bb.LL.y;
    auto flip = [&](pointf p) { return LayoutResult::Point { p.x - bb.LL.x, bb.UR.y - p.y }; };

    for (Agnode_t* node : nodes) {
        LayoutResult::NodeBox nodeBox;
        nodeBox.center = flip(ND_coord(node));
        nodeBox.widthPt = ND_width(node) * 72.0;
        nodeBox.heightPt = ND_height(node) * 72.0;
        result.nodes.push_back(nodeBox);
    }
    for (Agedge_t* edge : edges) {
        std::vector<LayoutResult::Point> points;
        LayoutResult::Point tip;
        if (edge && ED_spl(edge) && ED_spl(edge)->size > 0) {
            const bezier& bz = ED_spl(edge)->list[0];
            for (int i = 0; i < bz.size; ++i)
                points.push_back(flip(bz.list[i]));
            if (bz.eflag)
                tip = flip(bz.ep);
            else if (!points.empty())
                tip = points.back();
        }
        result.edgeSplines.push_back(std::move(points));
        result.arrowTips.push_back(tip);
    }
    gvFreeLayout(gvc, g);
    agclose(g);
    gvFreeContext(gvc);
    return result;
}
