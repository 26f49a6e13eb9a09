// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimProgram.h"

#include "SimProgramCatalog.h"

namespace rdt::pmu {

void SimProgram::layout()
{
    std::uint64_t at = base;
    for (auto& f : functions) {
        f.start = at;
        at += f.size;
    }
}

std::uint64_t SimProgram::end() const
{
    return functions.empty() ? base : functions.back().start + functions.back().size;
}

std::vector<SymbolRange> SimProgram::symbols() const
{
    std::vector<SymbolRange> out;
    for (const auto& f : functions)
        out.push_back({ f.start, f.size, f.name });
    return out;
}

SimProgram SimProgram::demo(double memoryScale)
{
    return demoProgram(memoryScale);
}

SimProgram SimProgram::frontendBound()
{
    return frontendBoundProgram();
}

SimProgram SimProgram::backendBound(double memoryScale)
{
    return backendBoundProgram(memoryScale);
}

Result<SimProgram> SimProgram::named(const std::string& name, double memoryScale)
{
    return namedProgram(name, memoryScale);
}

} // namespace rdt::pmu
