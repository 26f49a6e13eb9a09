// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/ColumnEnvelope.h"

#include <QVector>

class QCPGraphData;

/// The points drawn for an envelope: per column its min and max, ordered along the line (a falling stretch
/// draws hi -> lo, so no spurious zig-zag and half the pixels stroked), leaving out a column's first vertex when
/// it lies within `tol` (half a pixel) of where the line already is. Every column keeps its last vertex, so
/// the line never cuts across a column and each peak stays drawn within one column of where it happened.
void envelopePoints(const ColumnEnvelope& envelope, double scale, double tol, QVector<QCPGraphData>& out);
