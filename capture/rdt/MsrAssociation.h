// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "MsrGroupTable.h"
#include "MsrUndoLog.h"
#include "platform/MsrSpace.h"

namespace rdt {

/// Writes IA32_PQR_ASSOC of `cpu` to what the group table says (SDM 20.18.6, 20.19.6.6) through the change's undo log,
/// and reads it back.
Status writeAssociation(MsrSpace& msrs, MsrUndoLog& log, const MsrGroupTable& table, unsigned cpu);

} // namespace rdt
