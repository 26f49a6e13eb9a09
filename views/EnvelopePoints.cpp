// SPDX-License-Identifier: GPL-3.0-or-later
#include "EnvelopePoints.h"

#include "QCustomPlotInclude.h"

#include <cmath>

void envelopePoints(const ColumnEnvelope& envelope, double scale, double tol, QVector<QCPGraphData>& out)
{
    out.resize(0);
    double last = 0;
    for (const auto& c : envelope.columns()) {
        const double key = envelope.keyOf(c);
        const double lo = static_cast<double>(c.lo) * scale;
        const double hi = static_cast<double>(c.hi) * scale;
        if (std::isnan(lo)) { // every reading of the column was unknown: a gap in the line (QCPGraph breaks at NaN)
            out.append(QCPGraphData(key, lo));
            last = lo;
            continue;
        }
        const bool afterGap = !out.isEmpty() && std::isnan(last);
        const bool fallFirst = !out.isEmpty() && !afterGap && last - lo > hi - last;
        const double first = fallFirst ? hi : lo;
        const double second = fallFirst ? lo : hi;
        const bool keepFirst = out.isEmpty() || afterGap || std::abs(first - last) > tol;
        if (keepFirst) out.append(QCPGraphData(key, first));
        if (!keepFirst || second != first) out.append(QCPGraphData(key, second));
        last = second;
    }
}
