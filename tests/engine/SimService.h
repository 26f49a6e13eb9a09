// SPDX-License-Identifier: GPL-3.0-or-later
// Test helpers shared by the tests that run a closed loop on the simulator (blame, protect): the simulated machine
// as a capture service, and what every control group's schemata says now.
#pragma once

#include "engine/CaptureService.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

namespace rdt::test {

/// The simulator running `scenario` as a capture service; nullptr (and a test failure) when it does not open.
inline std::unique_ptr<engine::CaptureService> openSim(const std::string& scenario)
{
    engine::ServiceOptions o;
    o.rdt.spec = "sim";
    o.rdt.scenario = scenario;
    auto s = engine::CaptureService::open(o);
    EXPECT_TRUE(s) << (s ? "" : s.error().toString());
    return s ? std::move(*s) : nullptr;
}

/// Every control group's schemata as the engine reads it now, by path.
inline std::map<std::string, std::string> schemataOf(engine::Engine& e)
{
    std::map<std::string, std::string> out;
    for (const auto& g : e.snapshot().groups)
        if (g.info.isControl) out[g.info.path] = g.schemata.format();
    return out;
}

} // namespace rdt::test
