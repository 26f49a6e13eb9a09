// SPDX-License-Identifier: GPL-3.0-or-later
#include "SourceFactory.h"

rdt::Result<SourceBundle> openSource(const AppOptions& options)
{
    // UNFINISHED: filled in when the rdt/sim engines are merged.
    if (!options.openFile.isEmpty())
        return rdt::makeError("cannot replay " + options.openFile.toStdString(),
            "the session reader is not part of this build yet");
    return rdt::makeError("cannot open source '" + options.source.toStdString() + "'",
        "the RDT engine is not part of this build yet");
}
