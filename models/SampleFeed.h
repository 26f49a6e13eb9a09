// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "rdt/Sample.h"
#include "session/SessionTypes.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

/// What kind of data the GUI shows; the title and status bar say it (docs/ARCHITECTURE.md "Sources": simulated data is
/// labelled).
enum class SourceKind { None, Live, Simulated, Replay };

/// Where the data comes from and why that source was chosen (the RdtSource's reason text).
struct SourceDescription {
    SourceKind kind = SourceKind::None;
    std::string name; ///< "sim:noisy-neighbour", "resctrl:/sys/fs/resctrl", "replay:run.rdts"
    std::string reason; ///< e.g. "CPUID.(EAX=07H,ECX=0):EBX[12]=0: no RDT monitoring; using the simulated machine"
    std::string host; ///< where the engine runs: "" here, "the agent on root@srv" for a connected source
    std::string notMeasured; ///< why no occupancy or bandwidth is sampled ("" when monitoring runs)
};

/// Something the source did that is not an allocation edit of ours (a scenario's scripted write), as a marker.
struct FeedNote {
    std::uint64_t timeNs = 0;
    std::string text;
    bool ok = true;
};

/// What one frame drains from the engine.
struct DrainedFrame {
    std::vector<rdt::RdtSampleBatch> batches;
    std::vector<rdt::AllocationChanged> changes;
    std::vector<FeedNote> notes; ///< what the plots mark (a scenario's allocation writes, failures, a lost link)
    std::uint64_t droppedTotal = 0; ///< cumulative drops counted by the engine's bounded queues
    /// The source jumped (a replay seek): drop the series drawn so far before appending these batches.
    bool reset = false;
    /// A connected source's engine is gone (its agent or the link): why, once; the data already drained stays.
    std::string connectionLost;
};

/// The engine side of the frame pump: adapters over the RDT sampler queue, the simulator and the replay source
/// implement it. drain() is called on the GUI thread once per frame and must not block (it pops the SPSC queues
/// the engine threads fill); `maxBatches` bounds the work of one frame after a stall.
class SampleFeed {
public:
    virtual ~SampleFeed() = default;
    virtual SourceDescription description() const = 0;
    virtual void drain(DrainedFrame& out, std::size_t maxBatches) = 0;
};
