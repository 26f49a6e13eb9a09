// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// "Who is hurting me?" through the engine (so on a local machine, on the simulator and on an agent with --connect):
// the victim observed passively for a while, every other control group ranked by its evidence, and with `probe`
// the top suspects fenced one at a time (one transaction each, the original allocation written back at once, also
// on a stop request and on an error; through the agent the experiment bracket restores on a disconnect) while the
// victim is re-measured. Method: docs/BLAME.md.

#include "BlameTypes.h"
#include "engine/Engine.h"

#include <cstdint>
#include <functional>
#include <string>

namespace rdt::blame {

/// Suspects whose passive effect is below this share are not probed (nothing of theirs reaches the victim's ways).
inline constexpr double kProbeMinimumEffect = 0.02;

struct BlameSettings {
    std::string victim; ///< control group path ("" = default group)
    std::uint64_t durationNs = 10'000'000'000; ///< passive observation
    std::uint64_t pollNs = 250'000'000; ///< clamped by the counter width (SDM 20.18.8)
    std::uint64_t windowNs = 2'000'000'000; ///< sliding window length (windows overlap by half)
    bool probe = false;
    unsigned maxProbes = 3; ///< suspects fenced at most
    std::uint64_t probeSettleNs = 1'000'000'000; ///< after a fence or a restore, before measuring
    std::uint64_t probeMeasureNs = 2'000'000'000; ///< the victim measured before and during each fence
    /// Every probe together may take at most this long (source clock); probes that would not fit are left out.
    std::uint64_t probeBudgetNs = 30'000'000'000;
    /// After the probes, contain the culprit (blame/Containment.h): the one with the first culprit verdict, or
    /// without probes the first passively blamed suspect. The containment stays in place.
    bool contain = false;
    /// Wait in real time between polls. Real sources always do; simulated ones run as fast as they can otherwise.
    bool paced = false;
};

struct BlameHooks {
    std::function<bool()> stopRequested; ///< polled between polls: true restores and returns
    std::function<void(const engine::EngineEvent&)> onEvent; ///< events other than sample batches
    std::function<void(const RdtSampleBatch&)> onBatch; ///< every poll's samples
    /// What the run is doing ("observing victim for 15 s", "probe 1: fencing streamer with L3:0=3").
    std::function<void(const std::string& text, std::uint64_t timeNs)> onPhase;
    std::function<void(const ProbeResult&, std::uint64_t timeNs)> onProbe; ///< a probe finished (restored or not)
};

/// Observes, ranks and (with settings.probe) probes. Fails before anything is written when the victim is unknown,
/// the machine cannot monitor occupancy, or probes were asked for on a source that cannot be written (the engine's
/// writability says why).
Result<BlameResult> runBlame(engine::Engine& engine, const BlameSettings& settings, const BlameHooks& hooks = {});

/// The control group whose tasks file holds `pid` (--victim-pid): its path, or why there is none.
Result<std::string> groupOfPid(engine::Engine& engine, unsigned pid);

/// A suspect's probe verdict from its figures: "culprit", "innocent" or "inconclusive" (docs/BLAME.md "Probes").
std::string verdictOf(const ProbeResult& probe);

} // namespace rdt::blame
