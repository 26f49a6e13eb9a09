// SPDX-License-Identifier: GPL-3.0-or-later
#include "PerfRecord.h"

#include <array>
#include <string_view>

namespace rdt::pmu {

std::string recordTypeName(std::uint32_t type)
{
    static constexpr std::array<std::string_view, 22> kernel = { "type 0", "MMAP", "LOST", "COMM", "EXIT", "THROTTLE",
        "UNTHROTTLE", "FORK", "READ", "SAMPLE", "MMAP2", "AUX", "ITRACE_START", "LOST_SAMPLES", "SWITCH",
        "SWITCH_CPU_WIDE", "NAMESPACES", "KSYMBOL", "BPF_EVENT", "CGROUP", "TEXT_POKE", "AUX_OUTPUT_HW_ID" };
    static constexpr std::array<std::string_view, 20> user = { "HEADER_ATTR", "HEADER_EVENT_TYPE",
        "HEADER_TRACING_DATA", "HEADER_BUILD_ID", "FINISHED_ROUND", "ID_INDEX", "AUXTRACE_INFO", "AUXTRACE",
        "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP", "STAT_CONFIG", "STAT", "STAT_ROUND", "EVENT_UPDATE", "TIME_CONV",
        "HEADER_FEATURE", "COMPRESSED", "FINISHED_INIT", "COMPRESSED2" };
    if (type < kernel.size()) return std::string(kernel[type]);
    if (type >= perf::RecordUserTypeStart && type - perf::RecordUserTypeStart < user.size())
        return std::string(user[type - perf::RecordUserTypeStart]);
    return "type " + std::to_string(type);
}

} // namespace rdt::pmu
