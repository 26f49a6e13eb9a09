// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

class QCPAxis;

/// Sets a vertical axis's label to the first of `candidates` (longest first) whose text fits the axis's length, or
/// the last one: two short stacked plots then say "Occupancy (MiB)" and "GB/s" instead of running their titles into
/// each other. Returns true when the label changed (the plot needs another replot to show it).
bool fitAxisLabel(QCPAxis* axis, const QStringList& candidates);
