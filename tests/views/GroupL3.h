// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A group's L3 mask on domain 0 as the engine reads it now: what the page tests compare before and after a run.

#include "engine/Engine.h"

#include <optional>
#include <string>

inline std::optional<std::string> l3Of(rdt::engine::Engine& engine, const std::string& group)
{
    for (const auto& g : engine.snapshot().groups)
        if (g.info.path == group) return g.schemata.value("L3", 0);
    return std::nullopt;
}
