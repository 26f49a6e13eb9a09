// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "QCustomPlotInclude.h"

/// A QCPAxisRect that tells the margin its own axes need on a side (QCPLayoutElement::calculateAutoMargin is
/// protected). Lining up the time axes of two plots needs what each needs by itself: with the margins it has been
/// given instead, each plot would hold the other's minimum up and neither could shrink again.
class MarginProbeAxisRect : public QCPAxisRect {
public:
    using QCPAxisRect::QCPAxisRect;
    int neededMargin(QCP::MarginSide side) { return calculateAutoMargin(side); }
};
