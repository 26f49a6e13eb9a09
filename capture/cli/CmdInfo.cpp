// SPDX-License-Identifier: GPL-3.0-or-later
// `rdtscope-cli info`: every RDT/PMU capability of this machine (or of a CPUID dump) with its CPUID origin,
// SDM section and, for what is absent, why and what would fix it.
#include "CmdRdtSource.h"
#include "Commands.h"
#include "Options.h"
#include "rdt/VendorFeaturesText.h"

#include "core/OutputFile.h"
#include "platform/CapabilityReport.h"
#include "platform/CoreTypeView.h"
#include "platform/CpuidDump.h"
#include "platform/LiveCpuid.h"

#include <cstdio>
#include <memory>
#include <optional>

namespace rdt::cli {

namespace {

struct InfoOptions {
    std::string cpuidDump, sysfs;
    std::optional<std::string> saveCpuid; ///< given, even empty (then refused)
    double cpu = 0;
    std::optional<double> cpuidDevice;
    bool json = false, force = false;
    SourceOptions source;
    bool fromSource = false;
};

/// `info --source SRC`: what resctrl (or the MSR backend) of that source offers, in the vendor's units, with the
/// features only info/ shows. The CPUID report stays the machine's own, so it is not mixed in.
int runSourceInfo(const InfoOptions& o)
{
    int code = 0;
    auto service = openServiceForCli(o.source, code);
    if (!service) return code;
    auto machine = (*service)->machine();
    if (!machine) {
        std::fprintf(stderr, "rdtscope-cli info: %s\n", machine.error().toString().c_str());
        return exitCodeFor(machine.error());
    }
    const auto& caps = machine->capabilities;
    std::string t = "allocation:\n" + formatResourceLines(caps) + formatGroupLimits(caps);
    const auto vendor = formatVendorFeatures(caps);
    if (!vendor.empty()) t += "features shown only in info/:\n" + vendor;
    std::fwrite(t.data(), 1, t.size(), stdout);
    return ExitOk;
}

/// `rdtscope-cli --connect URL info`: the agent's machine, described there by the engine with the same report code
/// and printed here in the same format as the local command.
int runRemoteInfo(const InfoOptions& o)
{
    if (!o.cpuidDump.empty() || o.cpuidDevice || !o.sysfs.empty() || o.saveCpuid) {
        std::fprintf(stderr,
            "rdtscope-cli info: --cpuid-dump, --cpuid-device, --sysfs and --save-cpuid read this machine; with "
            "--connect the agent describes its own (drop them, or run info on the server)\n");
        return ExitUsage;
    }
    int code = 0;
    auto engine = openPmuEngineForCli(code); // no RDT source: the description does not depend on one
    if (!engine) return code;
    auto report = (*engine)->describeMachine();
    if (!report) {
        std::fprintf(stderr, "rdtscope-cli info: %s\n", report.error().toString().c_str());
        return exitCodeFor(report.error());
    }
    const std::string text = o.json ? formatCapabilityReportJson(*report) : formatCapabilityReportText(*report);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return ExitOk;
}

int runInfo(const InfoOptions& o)
{
    if (o.fromSource) return runSourceInfo(o);
    if (!connectUrl().empty()) return runRemoteInfo(o);
    std::unique_ptr<CpuidSource> source;
    if (o.cpuidDevice) {
        auto live = LiveCpuid::onCpu(static_cast<unsigned>(*o.cpuidDevice));
        if (!live) {
            std::fprintf(stderr, "rdtscope-cli info: %s\n", live.error().toString().c_str());
            return ExitUnavailable;
        }
        source = std::make_unique<LiveCpuid>(std::move(*live));
    } else if (!o.cpuidDump.empty()) {
        auto table = loadCpuidDump(o.cpuidDump, static_cast<unsigned>(o.cpu));
        if (!table) {
            std::fprintf(stderr, "rdtscope-cli info: %s\n", table.error().toString().c_str());
            return ExitFailure;
        }
        source = std::make_unique<CpuidTable>(std::move(*table));
    } else {
        source = std::make_unique<LiveCpuid>();
    }
    const CpuFeatures features = decodeCpuFeatures(*source);

    if (o.saveCpuid) {
        // The one output rule (core/OutputTarget.h): --force replaces only a CPUID snapshot.
        OutputRule rule;
        rule.kind = "CPUID snapshot";
        rule.isOwnKind
            = [](std::string_view head, const std::string&) { return headIsJsonFormat(head, "rdtscope-cpuid"); };
        rule.force = o.force;
        rule.inputs = { o.cpuidDump };
        if (auto s = writeOutputFile(*o.saveCpuid, cpuidTableToJson(snapshotCpuid(*source)), rule); !s) {
            std::fprintf(stderr, "rdtscope-cli info: --save-cpuid: %s\n", s.error().toString().c_str());
            return ExitFailure;
        }
    }

    std::optional<EnvironmentProbe> env;
    const bool dump = !o.cpuidDump.empty();
    if (!dump) env = probeEnvironment("/", features.identity.hypervisor);
    std::optional<Topology> topo;
    if (!o.sysfs.empty() || !dump) {
        auto t = readTopology(o.sysfs.empty() ? "/sys" : o.sysfs);
        if (t)
            topo = std::move(*t);
        else if (!o.sysfs.empty()) {
            std::fprintf(stderr, "rdtscope-cli info: %s\n", t.error().toString().c_str());
            return ExitFailure;
        }
    }
    CapabilityReport report = buildCapabilityReport(features, env ? &*env : nullptr, topo ? &*topo : nullptr);
    // A hybrid part (dump or this machine): every core type's own counts beside the chosen CPU's (leaves 04H and
    // 23H differ per type).
    if (features.hybrid.hybrid) appendCoreTypeLines(coreTypeViewsOf(o.cpuidDump), report);
    const std::string text = o.json ? formatCapabilityReportJson(report) : formatCapabilityReportText(report);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return ExitOk;
}

} // namespace

CommandRun defineInfo(CLI::App& cmd)
{
    cmd.footer("Lists every RDT and PMU capability, one per line, with the CPUID leaf/bit it comes from and the Intel\n"
               "SDM section that defines it; masks are printed in hex (e.g. 0x7ff). Absent features get a \"why not\"\n"
               "line that says what is missing and what would fix it. With rdtscope-cli --connect URL info the\n"
               "agent describes its machine, printed in the same format.\n"
               "Exit codes: 0 report printed (also when the machine has no RDT: the report says why),\n"
               "            1 failed (dump or sysfs tree unreadable, snapshot not writable), 2 usage error,\n"
               "            3 /dev/cpu/N/cpuid unavailable (no cpuid driver, not root, no such CPU).");
    auto o = std::make_shared<InfoOptions>();
    // --cpuid-device first: its conflict with --cpuid-dump is reported as "--cpuid-device excludes --cpuid-dump".
    auto* device = addNumber(cmd, "--cpuid-device", o->cpuidDevice, kCpuNumber, "N",
        "read this machine's CPUID through /dev/cpu/N/cpuid (cpuid driver, root)\n"
        "instead of executing the instruction on whichever CPU the command runs on");
    auto* dump = cmd.add_option("--cpuid-dump", o->cpuidDump,
                        "decode a CPUID dump instead of this machine: AIDA64/InstLatx64 text,\n"
                        "`cpuid -r` output, or an rdtscope JSON snapshot. Environment probes are\n"
                        "skipped for dumps.")
                     ->type_name("FILE")
                     ->excludes(device);
    addNumber(cmd, "--cpu", o->cpu, kCpuNumber, "N", "logical CPU of a multi-CPU dump to decode (default 0)")
        ->needs(dump);
    cmd.add_option("--sysfs", o->sysfs, "sysfs root for the topology (default /sys for this machine; none for a dump)")
        ->type_name("DIR");
    cmd.add_flag("--json", o->json, "print the capability list as JSON (the format the GUI Machine panel reads)");
    cmd.add_option("--save-cpuid", o->saveCpuid,
           "also write the CPUID values as an rdtscope JSON snapshot (what sessions\nstore)")
        ->type_name("FILE");
    cmd.add_flag("--force", o->force, "with --save-cpuid: replace FILE if it is a CPUID snapshot");
    auto* source = cmd.add_option("--source", o->source.source,
                          "instead of CPUID: what this RDT source offers (resctrl[:PATH], sim, sim-msr, msr),\n"
                          "with bandwidth in the vendor's units and the features only resctrl's info/ shows")
                       ->type_name("SRC")
                       ->excludes(dump)
                       ->excludes(device);
    // Without --source, info decodes this machine's CPUID (or a dump): a simulator option would be ignored, so it
    // is refused (and with --source, the engine refuses it where the source is not simulated).
    cmd.add_option("--scenario", o->source.scenario, "simulator scenario for sim sources (with --source)")
        ->type_name("NAME")
        ->needs(source);
    cmd.add_option(
           "--preset", o->source.preset, "sim: simulate this CPU preset instead of the scenario's (with --source)")
        ->type_name("ID")
        ->needs(source);
    return [o, source] {
        o->fromSource = source->count() > 0;
        return runInfo(*o);
    };
}

} // namespace rdt::cli
