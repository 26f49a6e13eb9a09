// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "engine/Engine.h"

#include <QString>

#include <functional>
#include <memory>

/// The engine a PmuSession's captures go through, live and simulated: one set from outside, one a factory opens on
/// the first capture (connected to an agent: the agent's), or else a local PMU-only capture service
/// (engine/CaptureService.h), as rdtscope-cli pmu opens. Its own class: where the engine comes from is apart from
/// what the session does with a capture.
class PmuEngineSource {
public:
    using Factory = std::function<rdt::Result<std::shared_ptr<rdt::engine::Engine>>()>;

    /// The engine to use from now on (null: open one on the next acquire()).
    void set(std::shared_ptr<rdt::engine::Engine> engine) { m_engine = std::move(engine); }
    /// Where the next engine comes from (null: a local PMU-only capture service); drops the engine in use.
    void setFactory(Factory factory);
    /// The engine in use, null before the first acquire().
    const rdt::engine::Engine* current() const { return m_engine.get(); }
    /// The engine in use, opened first when there is none; null with the reason and advice in *error.
    std::shared_ptr<rdt::engine::Engine> acquire(QString* error);

private:
    std::shared_ptr<rdt::engine::Engine> m_engine;
    Factory m_factory;
};
