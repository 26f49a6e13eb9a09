// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which hardware or trace produced a recording's branch stacks (docs/PMU.md "Branch stack sources"), from the
// sampling event's attr and what the header says about the recording: the events and PMUs it used, its
// architecture and its CPU id.

#include "PerfDataFeatures.h"
#include "pmu/BranchStackSource.h"
#include "pmu/PerfRecord.h"

namespace rdt::perfdata {

/// The source of the branch stacks that samples of `attr` carry.
pmu::BranchStackSource branchStackSource(const pmu::EventAttr& attr, const HeaderInfo& header);

} // namespace rdt::perfdata
