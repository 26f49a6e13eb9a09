// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli alloc show | alloc set --group NAME 'L3:0=ff0;1=ff0' ['MB:0=50' ...]
#include "CmdRdtSource.h"
#include "Commands.h"
#include "rdt/GroupNames.h"

#include <cstdio>

namespace rdt::cli {

namespace {
void usage()
{
    std::printf("usage: rdtscope-cli alloc show [--source SRC] [--scenario NAME]\n"
                "       rdtscope-cli alloc set --group NAME SCHEMATA... [--source SRC] [--scenario NAME]\n"
                "  SCHEMATA is one line per resource, e.g. 'L3:0=ff0;1=ff0' 'MB:0=50' (or one argument with\n"
                "  newlines). The change is validated first and applied as one transaction: on any failure\n"
                "  every domain already written is restored. The default group is named 'default'.\n");
}

void printCaps(const Capabilities& caps)
{
    for (const auto& r : caps.resources) {
        if (r.isCache())
            std::printf("%-7s cbm_mask %llx  min_cbm_bits %u  shareable_bits %llx  sparse %s  closids %u  "
                        "domains %zu\n",
                r.name.c_str(), static_cast<unsigned long long>(r.cbmMask), r.minCbmBits,
                static_cast<unsigned long long>(r.shareableBits), r.sparseMasks ? "yes" : "no", r.numClosids,
                r.domains.size());
        else
            std::printf("%-7s min %u  granularity %u  max %u  %s%s  closids %u  domains %zu\n", r.name.c_str(),
                r.minBandwidth, r.bandwidthGran, r.maxBandwidth, r.delayLinear ? "linear" : "non-linear",
                r.mbpsMode ? "  (MiBps mode)" : "", r.numClosids, r.domains.size());
    }
    if (caps.resources.empty()) std::printf("no allocation resources\n");
}

void printSchemata(const Schemata& s)
{
    for (const auto& line : s.lines())
        std::printf("  %s", s.formatLine(line.resource).c_str());
    for (const auto& w : s.warnings())
        std::printf("  warning: %s\n", w.c_str());
}
}

int cmdAlloc(const std::vector<std::string>& argv)
{
    auto parsed = Args::parse(argv, { "source", "scenario", "group", "who" }, { "help" });
    if (!parsed) {
        std::fprintf(stderr, "rdtscope-cli alloc: %s\n", parsed.error().toString().c_str());
        return ExitUsage;
    }
    const Args& args = *parsed;
    const auto& pos = args.positionals();
    if (args.has("help") || pos.empty()) {
        usage();
        return args.has("help") ? ExitOk : ExitUsage;
    }
    const std::string verb = pos[0];
    if (verb != "show" && verb != "set") {
        std::fprintf(stderr, "rdtscope-cli alloc: unknown action '%s' (show or set)\n", verb.c_str());
        return ExitUsage;
    }
    std::optional<Schemata> change;
    if (verb == "set") {
        if (!args.has("group") || pos.size() < 2) {
            std::fprintf(stderr, "rdtscope-cli alloc set: needs --group NAME and at least one schemata line\n");
            return ExitUsage;
        }
        auto s = parseUserSchemata(std::vector<std::string>(pos.begin() + 1, pos.end()));
        if (!s) {
            std::fprintf(stderr, "rdtscope-cli alloc set: %s\n", s.error().toString().c_str());
            return ExitUsage;
        }
        change = std::move(*s);
        if (auto valid = checkGroupPath(groupPathFromUser(*args.value("group"))); !valid) {
            std::fprintf(stderr, "rdtscope-cli alloc set: %s\n", valid.error().toString().c_str());
            return ExitUsage;
        }
    }
    int code = 0;
    // The engine (local, or the agent's with --connect) applies the change, so the rules and the transaction
    // are the same wherever it runs.
    auto service = openServiceForCli(args, code, args.valueOr("who", "cli"));
    if (!service) return code;
    engine::Engine& svc = **service;
    auto machine = svc.machine();
    if (!machine) {
        std::fprintf(stderr, "rdtscope-cli alloc: %s\n", machine.error().toString().c_str());
        return exitCodeFor(machine.error());
    }
    if (verb == "show") {
        printCaps(machine->capabilities);
        const auto snap = svc.snapshot();
        if (!snap.result.ok) {
            std::fprintf(stderr, "rdtscope-cli alloc: %s\n", snap.result.toString().c_str());
            return exitCodeFor(snap.result.error());
        }
        for (const auto& g : snap.groups) {
            if (!g.info.isControl) continue;
            std::printf("\n%s%s%s\n", displayGroup(g.info.path).c_str(), g.info.mode.empty() ? "" : "  mode ",
                g.info.mode.c_str());
            if (!g.schemataError.empty()) {
                std::printf("  (schemata unreadable: %s)\n", g.schemataError.c_str());
                continue;
            }
            printSchemata(g.schemata);
        }
        return ExitOk;
    }
    const auto group = groupPathFromUser(*args.value("group"));
    const auto out = svc.applyAllocation(group, *change);
    for (const auto& n : out.result.notes)
        std::printf("note: %s\n", n.c_str());
    for (const auto& e : out.changes)
        std::printf("%s %s:%d %s -> %s  %s\n", e.ok ? "ok    " : "FAILED", e.resource.c_str(), e.domain,
            e.oldValue.empty() ? "?" : e.oldValue.c_str(), e.newValue.c_str(), e.message.c_str());
    if (!out.result.ok) {
        std::fprintf(stderr, "rdtscope-cli alloc set: %s\n", out.result.toString().c_str());
        // The transaction's log: every step, then what the rollback restored (docs/SAFE-WRITES.md).
        for (const auto& step : out.steps)
            std::fprintf(stderr, "  step %s\n", step.c_str());
        if (out.rolledBack) std::fprintf(stderr, "every domain already written was restored\n");
        return ExitFailure;
    }
    for (const auto& g : svc.snapshot().groups)
        if (g.info.path == group && g.schemataError.empty()) {
            std::printf("%s now:\n", displayGroup(group).c_str());
            printSchemata(g.schemata);
        }
    return ExitOk;
}

} // namespace rdt::cli
