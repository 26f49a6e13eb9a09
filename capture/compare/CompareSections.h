// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The parts of compareProfiles that live in CompareCounts.cpp (internal to capture/compare).

#include "Compare.h"

namespace rdt::compare {

/// The rows of one compared item (a group and domain, a function): kept together in the output.
using ChangeItem = std::vector<DiffRow>;
/// Appends items ordered by their largest DiffRow::changeScore(), largest first.
void appendItemsByChange(std::vector<ChangeItem> items, std::vector<DiffRow>& out);

/// LBR call edges and hot branches, load latency per data source and per function, with shares of the side's
/// total and counts normalised as c.normalize says.
void compareCounts(Comparison& c);
/// Machines, sampling intervals, kinds of file, window lengths, and whether `options.normalize` can be applied
/// (sets c.normalize).
void checkMismatches(Comparison& c, const CompareOptions& options);

} // namespace rdt::compare
