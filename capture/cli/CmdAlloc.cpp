// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli alloc show | alloc set --group NAME 'L3:0=ff0;1=ff0' ['MB:0=50' ...]
#include "CmdRdtSource.h"
#include "Commands.h"
#include "LayoutText.h"
#include "rdt/GroupNames.h"
#include "rdt/UserSchemata.h"
#include "rdt/VendorFeaturesText.h"

#include <cstdio>

namespace rdt::cli {

namespace {
struct AllocOptions {
    bool set = false;
    SourceOptions source;
    std::string group, who = "cli";
    std::vector<std::string> schemata;
};

void printCaps(const Capabilities& caps)
{
    const auto lines = formatResourceLines(caps) + formatVendorFeatures(caps);
    std::fwrite(lines.data(), 1, lines.size(), stdout);
}

/// The schemata lines as the kernel spells them, bandwidth lines followed by their values in the vendor's unit
/// ("MB:0=2048;1=16  (unlimited, 2 GB/s)").
void printSchemata(const Schemata& s, const Capabilities& caps)
{
    for (const auto& line : s.lines()) {
        std::string text = s.formatLine(line.resource);
        const auto* r = caps.resource(line.resource);
        if (r && !r->isCache()) {
            std::string units;
            for (const auto& [d, v] : line.values) {
                const auto raw = parseBandwidth(v);
                units += (units.empty() ? "" : ", ") + (raw ? formatBandwidth(*r, *raw) : v);
            }
            if (!text.empty() && text.back() == '\n') text.pop_back();
            text += "  (" + units + ")\n";
        }
        std::printf("  %s", text.c_str());
    }
    for (const auto& w : s.warnings())
        std::printf("  warning: %s\n", w.c_str());
}

int runAlloc(const AllocOptions& o)
{
    const std::string changeText = o.set ? userSchemataText(o.schemata) : std::string();
    if (o.set) {
        // Syntax first, before any source is opened; the units of bandwidth values need the capabilities.
        if (auto s = checkUserSchemataSyntax(changeText); !s) {
            std::fprintf(stderr, "rdtscope-cli alloc set: %s\n", s.error().toString().c_str());
            return ExitUsage;
        }
    }
    int code = 0;
    // The engine (local, or the agent's with --connect) applies the change, so the rules and the transaction
    // are the same wherever it runs.
    auto service = openServiceForCli(o.source, code, o.who);
    if (!service) return code;
    engine::Engine& svc = **service;
    auto machine = svc.machine();
    if (!machine) {
        std::fprintf(stderr, "rdtscope-cli alloc: %s\n", machine.error().toString().c_str());
        return exitCodeFor(machine.error());
    }
    if (!o.set) {
        printCaps(machine->capabilities);
        // What each resource is, as the engine lays it out for every front end (the GUI's heatmap shows the same).
        if (auto layout = svc.allocationLayout()) {
            const auto text = formatLayoutLines(*layout);
            std::fwrite(text.data(), 1, text.size(), stdout);
        }
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
            printSchemata(g.schemata, machine->capabilities);
        }
        return ExitOk;
    }
    auto change = parseUserSchemata(changeText, machine->capabilities);
    if (!change) {
        std::fprintf(stderr, "rdtscope-cli alloc set: %s\n", change.error().toString().c_str());
        return ExitUsage;
    }
    const auto group = groupPathFromUser(o.group);
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
            printSchemata(g.schemata, machine->capabilities);
        }
    return ExitOk;
}

/// --source, --scenario and --who, on `alloc` and on each action (so they may come before or after it).
void addCommonOptions(CLI::App& cmd, AllocOptions& o)
{
    addSourceOptions(cmd, o.source);
    cmd.add_option("--who", o.who, "who applies the change, as allocation events name it (default cli)")
        ->type_name("NAME");
}

} // namespace

CommandRun defineAlloc(CLI::App& cmd)
{
    auto o = std::make_shared<AllocOptions>();
    cmd.require_subcommand(1);
    addCommonOptions(cmd, *o);
    auto* show = cmd.add_subcommand("show", "the allocation resources and every control group's schemata");
    addCommonOptions(*show, *o);
    auto* set = cmd.add_subcommand("set", "apply schemata lines to a group, as one transaction");
    set->footer("SCHEMATA is one line per resource, e.g. 'L3:0=ff0;1=ff0' 'MB:0=50' (or one argument with\n"
                "newlines). The change is validated first and applied as one transaction: on any failure every\n"
                "domain already written is restored. The default group is named 'default'.");
    set->add_option("--group", o->group, "the group to change ('default' is the root group)")
        ->type_name("NAME")
        ->required()
        ->check(checkedBy([](const std::string& name) { return checkGroupPath(groupPathFromUser(name)); }));
    addPositional(*set, "SCHEMATA", o->schemata, "schemata lines")->required();
    addCommonOptions(*set, *o);
    set->callback([o] { o->set = true; });
    return [o] { return runAlloc(*o); };
}

} // namespace rdt::cli
