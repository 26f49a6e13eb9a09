// SPDX-License-Identifier: GPL-3.0-or-later
#include "SourceFactory.h"

#include "EngineSource.h"

rdt::Result<SourceBundle> openSource(const AppOptions& options)
{
    if (!options.openFile.isEmpty()) {
        // UNFINISHED: replay through capture/session's ReplaySource.
        return rdt::makeError("cannot replay " + options.openFile.toStdString(),
            "opening sessions in the GUI is not part of this build yet; use rdtscope-cli replay");
    }
    return openEngineSource(options.source.toStdString(), options.scenario.toStdString());
}
