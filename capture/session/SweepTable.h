// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SessionFile.h"
#include "SessionTypes.h"

#include <vector>

namespace rdt::session {

/// The sweeps recorded into a session (table `sweep_steps`, with `sweep_pmu`): read on demand, not at open,
/// because files written before the tables existed do not have them and are not damaged for that.
class SweepTable {
public:
    explicit SweepTable(SessionFile& file);
    Result<std::vector<SweepStepRow>> sweepSteps();

private:
    SessionFile& m_file;
};

} // namespace rdt::session
