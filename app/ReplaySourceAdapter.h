// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SourceBundle.h"

#include "core/Result.h"

#include <QString>

/// Opens a recorded session (capture/session) as a source: the frame pump pulls the ReplaySource each frame, the
/// replay bar drives play/pause/speed/seek, and the heatmap shows the allocation recorded at the current time.
rdt::Result<SourceBundle> openReplaySource(const QString& path);
