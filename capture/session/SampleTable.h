// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SessionFile.h"
#include "rdt/Sample.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace rdt::session {

/// The session's RDT samples (table `rdt_samples`): their time range, and scans in time order that skip over
/// damaged pages and say what they lost, never handing out part of the session as if it were all of it.
class SampleTable {
public:
    explicit SampleTable(SessionFile& file);
    /// What the metadata says before the rows are asked: its time range and sample count (0: unknown), whether
    /// the recording closed cleanly, the monotonic start time when the meta table has one, and whether the flags
    /// name each MBM counter (meta `mbm_flags`).
    void setRecorded(std::uint64_t firstNs, std::uint64_t lastNs, std::uint64_t count, bool closedCleanly,
        std::optional<std::uint64_t> startMonoNs, bool mbmFlagsPerCounter);
    /// When the recorded count is unknown: the group list's sum.
    void setCountIfUnknown(std::uint64_t count)
    {
        if (m_sampleCount == 0) m_sampleCount = count;
    }
    /// Reads the time range from the rows (two index look-ups), which win over the metadata when they disagree.
    void loadTimeRange();

    std::uint64_t firstNs() const { return m_firstNs; }
    std::uint64_t lastNs() const { return m_lastNs; }
    std::uint64_t sampleCount() const { return m_sampleCount; }
    /// Origin of the session's time axis (meta.start_mono_ns, or the first sample when missing).
    std::uint64_t originNs() const;

    Status forEachSample(std::uint64_t fromNs, std::uint64_t toNs, const std::function<bool(const RdtSample&)>& fn);
    std::optional<std::uint64_t> nextSampleTime(std::uint64_t fromNs);
    Result<std::vector<RdtSample>> samples(std::uint64_t fromNs, std::uint64_t toNs, std::size_t limit);
    Status checkWholeSessionRead(std::uint64_t delivered);

private:
    struct ScanState {
        std::uint64_t delivered = 0;
        std::uint64_t lastNs = 0;
        bool any = false;
        bool stopped = false; ///< the callback asked to stop
    };
    Status scanSamples(
        std::uint64_t fromNs, std::uint64_t toNs, const std::function<bool(const RdtSample&)>& fn, ScanState& state);
    void checkTimeSpan();

    SessionFile& m_file;
    std::uint64_t m_firstNs = 0;
    std::uint64_t m_lastNs = 0;
    std::uint64_t m_sampleCount = 0;
    std::optional<std::uint64_t> m_startMonoNs;
    bool m_closedCleanly = false;
    bool m_mbmFlagsPerCounter = false; ///< meta `mbm_flags`: else one set of MBM flags stands for both counters
};

} // namespace rdt::session
