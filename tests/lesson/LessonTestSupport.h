// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the lesson tests: one sampling interval of the simulated machine, its events handed to the run.

#include "engine/CaptureService.h"
#include "lesson/LessonRun.h"

#include <gtest/gtest.h>

namespace rdt::lesson::test {

inline void tick(engine::CaptureService& e, LessonRun& run)
{
    e.advanceTo(e.nowNs() + e.samplingIntervalNs());
    ASSERT_TRUE(e.pollRdt().ok);
    for (auto& ev : e.drainEvents())
        run.observe(ev);
    run.update(e);
}

} // namespace rdt::lesson::test
