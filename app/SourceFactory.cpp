// SPDX-License-Identifier: GPL-3.0-or-later
#include "SourceFactory.h"

#include "EngineSource.h"

#include "remote/RemoteEngine.h"

#include <QCoreApplication>

rdt::Result<SourceBundle> openSource(const AppOptions& options)
{
    if (!options.openFile.isEmpty()) return openReplaySource(options.openFile);
    if (!options.connect.isEmpty()) return openConnectedSource(options);
    // The dashboard's simulated machine thins its accesses 32x once steady (issue 16: idle cost); any change brings
    // it back to full rate at once (capture/sim/TimeScale.h).
    constexpr std::uint32_t kDashboardTimeScale = 32;
    return openEngineSource(options.source.toStdString(), options.scenario.toStdString(), 10.0, false,
        kDashboardTimeScale, options.preset.toStdString());
}

rdt::Result<SourceBundle> openConnectedSource(const AppOptions& options)
{
    rdt::engine::ServiceOptions service;
    service.rdt.spec = options.source.toStdString();
    service.rdt.scenario = options.scenario.toStdString();
    service.rdt.simPreset = options.preset.toStdString();
    service.who = "gui";
    service.sncNodeSamples = true; // SNC machines: the Monitor dock's rows per sub-NUMA node
    const std::string software = "rdtscope " + QCoreApplication::applicationVersion().toStdString();
    auto engine
        = rdt::remote::connectEngine(options.connect.toStdString(), service, software, options.agentPath.toStdString());
    if (!engine) {
        rdt::Error e = engine.error();
        e.message = "cannot open source '" + service.rdt.spec + "' through " + options.connect.toStdString() + ": "
            + e.message;
        return e;
    }
    // The agent decides what this client may change (polkit, its group, the kernel): its answers say why not.
    return engineSourceBundle(std::move(*engine), 10.0);
}

rdt::Result<std::shared_ptr<rdt::engine::Engine>> openConnectedPmuEngine(const AppOptions& options)
{
    rdt::engine::ServiceOptions service;
    service.openRdt = false;
    service.who = "gui";
    const std::string software = "rdtscope " + QCoreApplication::applicationVersion().toStdString();
    auto engine
        = rdt::remote::connectEngine(options.connect.toStdString(), service, software, options.agentPath.toStdString());
    if (!engine) return engine.error();
    return std::shared_ptr<rdt::engine::Engine>(std::move(*engine));
}
