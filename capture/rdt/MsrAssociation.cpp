// SPDX-License-Identifier: GPL-3.0-or-later
#include "MsrAssociation.h"

#include "MsrBits.h"
#include "core/Text.h"

#include <cerrno>
#include <string>

namespace rdt {

Status writeAssociation(MsrSpace& msrs, MsrUndoLog& log, const MsrGroupTable& table, unsigned cpu)
{
    const std::uint64_t value = table.assocValue(cpu);
    if (auto w = log.write(cpu, msr::IA32_PQR_ASSOC, value); !w) return w;
    auto back = msrs.read(cpu, msr::IA32_PQR_ASSOC);
    if (!back) return back.error();
    if (*back != value)
        return errnoError(EIO,
            "IA32_PQR_ASSOC on CPU " + std::to_string(cpu) + " reads " + hexDigits(*back) + " after writing "
                + hexDigits(value));
    return {};
}

} // namespace rdt
