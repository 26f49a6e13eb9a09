// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A blame run in a session file (docs/BLAME.md "Recording"): every poll's samples and allocation events (each
// probe's fence and restore, a containment), and `blame` markers: the run's phases, each probe's verdict when it
// ends, then the victim's harm, the ranking with its evidence and the containment. Only the session's existing
// tables (docs/SESSION-FORMAT.md), so `replay`, `summary` and the GUI read it like any session.

#include "Blame.h"
#include "experiment/SweepRecording.h"

#include <string>

namespace rdt::blame {

class BlameRecording {
public:
    Status open(engine::Engine& engine, const std::string& file, const BlameSettings& settings, bool force,
        const experiment::SessionOrigin& origin);
    /// The run's samples, events, phases and probes go into the file too (the caller's hooks still run first).
    void hook(BlameHooks& hooks);
    /// The outcome as markers (or the failure's reason), then the file is closed; the error when writing failed.
    Status finish(engine::Engine& engine, const Result<BlameResult>& result);

private:
    void mark(std::uint64_t timeNs, const std::string& text);
    experiment::SweepRecording m_rec;
};

/// The marker lines a finished run leaves (also what `replay` shows of it): harm, ranking, containment.
std::vector<std::string> blameMarkers(const BlameResult& result);
/// The marker of a phase ("blame: probe: fencing streamer with L3:0=1"), of a finished probe, and of the run's end
/// (the texts a GUI recording writes too, models/BlameRun.h).
std::string phaseMarker(const std::string& phase);
std::string probeMarker(const ProbeResult& probe);
std::string endMarker(const BlameResult& result);
/// The marker kind of all of them: "blame".
inline constexpr const char* kBlameMarkerKind = "blame";

} // namespace rdt::blame
