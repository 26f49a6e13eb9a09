// SPDX-License-Identifier: GPL-3.0-or-later
#include "SampleFlags.h"

#include "Sample.h"

namespace rdt {

namespace {
struct FlagName {
    std::uint32_t bits;
    char letter; ///< 0: not shown in tables
    const char* words;
};

constexpr FlagName kFlags[] = {
    { SampleOccupancyError, 'E', "occupancy error" },
    { SampleOccupancyUnavailable, 'U', "occupancy unavailable" },
    { SampleMbmError, 'E', "MBM total error" },
    { SampleMbmUnavailable, 'U', "MBM total unavailable" },
    { SampleMbmUnassigned, 'A', "MBM total counter unassigned" },
    { SampleMbmLocalError, 'E', "MBM local error" },
    { SampleMbmLocalUnavailable, 'U', "MBM local unavailable" },
    { SampleMbmLocalUnassigned, 'A', "MBM local counter unassigned" },
    { SampleWrapped, 'W', "counter wrapped (corrected)" },
    { SampleOverflowBit, 'O', "overflow bit set (IA32_QM_CTR bit 61)" },
    { SampleMaybeMultiWrap, 'M', "may have wrapped more than once: rate is a lower bound" },
    { SampleCounterReset, 'R', "counter reset" },
    { SampleTelemetryError, 'E', "telemetry error" },
    { SampleTelemetryUnavailable, 'U', "telemetry unavailable" },
    { SampleFirst, 0, "first sample" },
    { SampleOccupancyAbsent, 0, "no occupancy counter on this machine" },
    { SampleMbmTotalAbsent, 0, "no MBM total counter on this machine" },
    { SampleMbmLocalAbsent, 0, "no MBM local counter on this machine" },
};
} // namespace

std::string sampleFlagLetters(std::uint32_t flags)
{
    std::string s;
    for (const auto& f : kFlags)
        if ((flags & f.bits) && f.letter && s.find(f.letter) == std::string::npos) s += f.letter;
    return s.empty() ? "-" : s;
}

std::string sampleFlagWords(std::uint32_t flags)
{
    std::string s;
    for (const auto& f : kFlags)
        if (flags & f.bits) s += (s.empty() ? "" : ", ") + std::string(f.words);
    return s;
}

} // namespace rdt
