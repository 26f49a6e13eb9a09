// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the sweep tests share: short settle and measure times, and a handle on a Simulation the test built itself (so
// it reads the emulated files and registers directly). The handle offers no model of its threads' execution, as a
// source without a PMU.

#include "experiment/Sweep.h"
#include "sim/Simulation.h"

#include <memory>
#include <string>

namespace rdt::experiment::test {

inline SweepSettings quick(const std::string& group)
{
    SweepSettings s;
    s.group = group;
    s.settleNs = 200'000'000;
    s.measureNs = 500'000'000;
    s.pollNs = 100'000'000;
    return s;
}

class TestControl final : public SimulationControl {
public:
    explicit TestControl(std::shared_ptr<sim::Simulation> s, std::string description = "test simulation")
        : m_sim(std::move(s))
        , m_description(std::move(description))
    { }
    std::uint64_t nowNs() const override { return m_sim->machine().nowNs(); }
    void advanceTo(std::uint64_t t) override
    {
        if (t > nowNs()) m_sim->advance(t - nowNs());
    }
    std::string scenarioName() const override { return m_sim->scenario().name; }
    std::string describe() const override { return m_description; }

private:
    std::shared_ptr<sim::Simulation> m_sim;
    std::string m_description;
};

} // namespace rdt::experiment::test
