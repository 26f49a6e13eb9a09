// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SourceBundle.h"

#include "core/Result.h"

#include <string>

/// Opens an RDT source by spec ("auto", "sim", "sim-msr", "resctrl[:PATH]", "msr") with the rdt engine: the
/// sampler runs on its own thread at `rateHz` and the frame pump drains its queue; allocation edits go through the
/// AllocationEngine, whose events become timeline markers.
rdt::Result<SourceBundle> openEngineSource(const std::string& spec, const std::string& scenario, double rateHz = 10.0);
