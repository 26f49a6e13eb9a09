// SPDX-License-Identifier: GPL-3.0-or-later
// `rdtscope-cli info`: every RDT/PMU capability of this machine (or of a CPUID dump) with its CPUID origin,
// SDM section and, for what is absent, why and what would fix it.
#include "Args.h"
#include "Commands.h"

#include "platform/CapabilityReport.h"
#include "platform/CpuidDump.h"
#include "platform/LiveCpuid.h"

#include <cstdio>
#include <fstream>
#include <memory>

namespace rdt::cli {

namespace {

const char* const kInfoHelp = R"(usage: rdtscope-cli info [--cpuid-dump FILE [--cpu N] | --cpuid-device N] [--sysfs DIR]
                         [--json] [--save-cpuid FILE]

Lists every RDT and PMU capability, one per line, with the CPUID leaf/bit it comes from and the Intel SDM
section that defines it; masks are printed in hex (e.g. 0x7ff). Absent features get a "why not" line that
says what is missing and what would fix it.

Options:
  --cpuid-dump FILE  decode a CPUID dump instead of this machine: AIDA64/InstLatx64 text, `cpuid -r`
                     output, or an rdtscope JSON snapshot. Environment probes are skipped for dumps.
  --cpu N            logical CPU of a multi-CPU dump to decode (default 0)
  --cpuid-device N   read this machine's CPUID through /dev/cpu/N/cpuid (cpuid driver, root) instead of
                     executing the instruction on whichever CPU the command runs on
  --sysfs DIR        sysfs root for the topology (default /sys for this machine; none for a dump)
  --json             print the capability list as JSON (the format the GUI Machine panel reads)
  --save-cpuid FILE  also write the CPUID values as an rdtscope JSON snapshot (what sessions store)
  --help             this text

Exit codes: 0 report printed (also when the machine has no RDT: the report says why),
            1 failed (dump or sysfs tree unreadable, snapshot not writable), 2 usage error,
            3 /dev/cpu/N/cpuid unavailable (no cpuid driver, not root, no such CPU).
)";

} // namespace

int cmdInfo(const std::vector<std::string>& argv)
{
    auto args = Args::parse(argv, { "cpuid-dump", "cpu", "cpuid-device", "sysfs", "save-cpuid" }, { "json", "help" });
    if (!args) {
        std::fprintf(stderr, "rdtscope-cli info: %s\n\n%s", args.error().toString().c_str(), kInfoHelp);
        return ExitUsage;
    }
    if (args->has("help")) {
        std::fputs(kInfoHelp, stdout);
        return ExitOk;
    }
    if (!args->positionals().empty()) {
        std::fprintf(
            stderr, "rdtscope-cli info: unexpected argument '%s'\n\n%s", args->positionals()[0].c_str(), kInfoHelp);
        return ExitUsage;
    }
    auto cpuNumber = args->number("cpu", 0, kCpuNumber);
    if (!cpuNumber) {
        std::fprintf(stderr, "rdtscope-cli info: %s\n", cpuNumber.error().toString().c_str());
        return ExitUsage;
    }
    const auto dumpPath = args->value("cpuid-dump");
    if (args->has("cpu") && !dumpPath) {
        std::fprintf(stderr, "rdtscope-cli info: --cpu applies to --cpuid-dump only\n");
        return ExitUsage;
    }

    auto device = args->number("cpuid-device", -1, kCpuNumber);
    if (!device) {
        std::fprintf(stderr, "rdtscope-cli info: %s\n", device.error().toString().c_str());
        return ExitUsage;
    }
    if (args->has("cpuid-device") && dumpPath) {
        std::fprintf(stderr, "rdtscope-cli info: --cpuid-device needs a CPU number and excludes --cpuid-dump\n");
        return ExitUsage;
    }

    std::unique_ptr<CpuidSource> source;
    if (args->has("cpuid-device")) {
        auto live = LiveCpuid::onCpu(static_cast<unsigned>(*device));
        if (!live) {
            std::fprintf(stderr, "rdtscope-cli info: %s\n", live.error().toString().c_str());
            return ExitUnavailable;
        }
        source = std::make_unique<LiveCpuid>(std::move(*live));
    } else if (dumpPath) {
        auto table = loadCpuidDump(*dumpPath, static_cast<unsigned>(*cpuNumber));
        if (!table) {
            std::fprintf(stderr, "rdtscope-cli info: %s\n", table.error().toString().c_str());
            return ExitFailure;
        }
        source = std::make_unique<CpuidTable>(std::move(*table));
    } else {
        source = std::make_unique<LiveCpuid>();
    }
    const CpuFeatures features = decodeCpuFeatures(*source);

    if (const auto out = args->value("save-cpuid")) {
        std::ofstream file(*out, std::ios::binary | std::ios::trunc);
        file << cpuidTableToJson(snapshotCpuid(*source));
        if (!file.flush()) {
            std::fprintf(stderr, "rdtscope-cli info: cannot write %s\n", out->c_str());
            return ExitFailure;
        }
    }

    std::optional<EnvironmentProbe> env;
    if (!dumpPath) env = probeEnvironment("/", features.identity.hypervisor);
    std::optional<Topology> topo;
    const auto sysfs = args->value("sysfs");
    if (sysfs || !dumpPath) {
        auto t = readTopology(sysfs.value_or("/sys"));
        if (t)
            topo = std::move(*t);
        else if (sysfs) {
            std::fprintf(stderr, "rdtscope-cli info: %s\n", t.error().toString().c_str());
            return ExitFailure;
        }
    }
    const CapabilityReport report = buildCapabilityReport(features, env ? &*env : nullptr, topo ? &*topo : nullptr);
    const std::string text
        = args->has("json") ? formatCapabilityReportJson(report) : formatCapabilityReportText(report);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return ExitOk;
}

} // namespace rdt::cli
