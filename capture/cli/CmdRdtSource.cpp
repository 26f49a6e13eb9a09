// SPDX-License-Identifier: GPL-3.0-or-later
#include "CmdRdtSource.h"

#include "engine/CaptureService.h"
#include "engine/SourceAssembly.h"
#include "rdt/GroupNames.h"
#include "remote/RemoteEngine.h"

#include <cerrno>
#include <cstdio>

namespace rdt::cli {

int exitCodeFor(const Error& e)
{
    switch (e.code) {
    case ENOENT:
    case ENODEV:
    case ENXIO:
    case ENOSYS:
    case EOPNOTSUPP:
    case EACCES:
    case EPERM:
    case EBUSY:
        return 3;
    default:
        return 1;
    }
}

void addSourceOptions(CLI::App& cmd, SourceOptions& o)
{
    cmd.add_option("--source", o.source, "auto (default), sim, sim-msr[:DIR], resctrl[:PATH], msr")->type_name("SRC");
    cmd.add_option("--scenario", o.scenario, "simulator scenario (default noisy-neighbour)")->type_name("NAME");
    cmd.add_option("--preset", o.preset, "sim: simulate this CPU preset instead of the scenario's (e.g. epyc-genoa)")
        ->type_name("ID");
}

namespace {
std::string g_connectUrl;
std::string g_remoteAgent;

/// "source: ..." and the simulated / warning lines: the same for a local and a remote engine.
void announceSource(const engine::SourceDescription& d)
{
    std::fprintf(stderr, "source: %s (%s)\n", d.backend.c_str(), d.why.c_str());
    if (d.simulated)
        std::fprintf(stderr, "note: SIMULATED data (%s), not measured on this machine\n",
            d.simulation.empty() ? "simulator" : d.simulation.c_str());
    for (const auto& w : d.warnings)
        std::fprintf(stderr, "warning: %s\n", w.c_str());
}
}

void setConnectUrl(std::string url)
{
    g_connectUrl = std::move(url);
}

void setRemoteAgentPath(std::string path)
{
    g_remoteAgent = std::move(path);
}

const std::string& connectUrl()
{
    return g_connectUrl;
}

namespace {
Result<std::unique_ptr<engine::Engine>> openEngine(const engine::ServiceOptions& o, int& exitCode)
{
    std::unique_ptr<engine::Engine> engine;
    if (!g_connectUrl.empty()) {
        auto r = remote::connectEngine(g_connectUrl, o, "rdtscope-cli " RDTSCOPE_VERSION, g_remoteAgent);
        if (!r) {
            std::fprintf(stderr, "rdtscope-cli: cannot open source '%s' through %s: %s\n", o.rdt.spec.c_str(),
                g_connectUrl.c_str(), r.error().toString().c_str());
            exitCode = exitCodeFor(r.error());
            return r.error();
        }
        const auto& w = (*r)->client().welcome();
        std::fprintf(stderr, "agent: %s on %s (uid %u) via %s\n", w.software().c_str(), w.hostname().c_str(), w.uid(),
            g_connectUrl.c_str());
        engine = std::move(*r);
    } else {
        auto s = engine::CaptureService::open(o);
        if (!s) {
            std::fprintf(stderr, "rdtscope-cli: cannot open source '%s': %s\n", o.rdt.spec.c_str(),
                s.error().toString().c_str());
            exitCode = exitCodeFor(s.error());
            return s.error();
        }
        engine = std::move(*s);
    }
    exitCode = 0;
    return engine;
}
} // namespace

Result<std::unique_ptr<engine::Engine>> openServiceForCli(
    const SourceOptions& options, int& exitCode, const std::string& who)
{
    engine::ServiceOptions o;
    o.who = who;
    o.rdt.spec = options.source;
    o.rdt.scenario = options.scenario;
    o.rdt.simPreset = options.preset;
    o.sncNodeSamples = options.sncNodes;
    auto engine = openEngine(o, exitCode);
    if (engine) announceSource((*engine)->source());
    return engine;
}

Result<std::unique_ptr<engine::Engine>> openPmuEngineForCli(int& exitCode)
{
    engine::ServiceOptions o;
    o.openRdt = false;
    return openEngine(o, exitCode);
}

std::string groupPathFromUser(const std::string& name)
{
    return groupPathFromName(name);
}

std::string userSchemataText(const std::vector<std::string>& parts)
{
    std::string text;
    // A literal backslash-n (as typed in a shell without $'...') separates lines too.
    for (const auto& part : parts) {
        for (std::size_t i = 0; i < part.size(); ++i) {
            if (part[i] == '\\' && i + 1 < part.size() && part[i + 1] == 'n') {
                text += '\n';
                ++i;
            } else {
                text += part[i];
            }
        }
        text += '\n';
    }
    return text;
}

} // namespace rdt::cli
