// SPDX-License-Identifier: GPL-3.0-or-later
#include "SourceFactory.h"

#include "EngineSource.h"
#include "ReplaySourceAdapter.h"

rdt::Result<SourceBundle> openSource(const AppOptions& options)
{
    if (!options.openFile.isEmpty()) return openReplaySource(options.openFile);
    return openEngineSource(options.source.toStdString(), options.scenario.toStdString());
}
