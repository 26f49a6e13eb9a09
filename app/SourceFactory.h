// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AppOptions.h"
#include "SourceBundle.h"

#include "core/Result.h"

/// Opens the data source the options ask for: a replay (--open), or an RDT source by spec (--source, with the
/// scenario for the simulated machine). Errors say what is missing and how to fix it.
rdt::Result<SourceBundle> openSource(const AppOptions& options);
