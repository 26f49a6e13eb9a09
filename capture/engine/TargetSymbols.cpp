// SPDX-License-Identifier: GPL-3.0-or-later
#include "TargetSymbols.h"

namespace rdt::engine {

void loadTargetSymbols(pmu::Symbolizer& symbols, const std::vector<std::uint32_t>& pids)
{
    for (auto pid : pids)
        (void)symbols.loadProcMaps(pid);
    (void)symbols.loadKallsyms();
}

} // namespace rdt::engine
