// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for CPUID dumps (`info --cpuid-dump FILE`, `rdtscope --cpuid-dump FILE`): any text, read as a
// JSON snapshot, and as an AIDA64/InstLatx64 dump and `cpuid -r` output for two logical CPUs, then decoded into
// the RDT/PMU features and the capability report (text and JSON). Errors are the expected outcome for garbage; crashes
// and hangs are not.
#include "platform/CapabilityReport.h"
#include "platform/CpuFeatures.h"
#include "platform/CpuidDump.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace rdt;
    const std::string text(reinterpret_cast<const char*>(data), size);
    // rdtscope's own JSON snapshot (`--save-cpuid`): parsed by core/Json, whose nesting limit this also exercises.
    if (auto snapshot = cpuidTableFromJson(text)) (void)cpuidTableToJson(*snapshot);
    for (unsigned cpu : { 0u, 1u }) {
        for (auto parse : { &parseAida64Dump, &parseRawCpuidDump }) {
            auto table = parse(text, cpu, "fuzz");
            if (!table) continue;
            const CapabilityReport report = buildCapabilityReport(decodeCpuFeatures(*table), nullptr, nullptr);
            (void)formatCapabilityReportText(report);
            (void)formatCapabilityReportJson(report);
        }
    }
    return 0;
}
