// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

/// rdtscope [--connect URL [--agent PATH]] [--source SRC] [--scenario NAME] [--preset ID] [--open FILE] [--view
/// machine|rdt|tma|callgraph|latency]
///          [--cpuid-dump FILE] [--compare FILE [--compare-page PAGE]] [--screenshot FILE [--after SECONDS]]
struct AppOptions {
    QString source = QStringLiteral("auto");
    QString scenario; ///< "" = not named: the default scenario (noisy-neighbour) on simulated sources
    QString preset; ///< --preset ID: the simulated CPU instead of the scenario's (sim only)
    QString openFile;
    QString connect; ///< an rdtscope-agent to run the source on: ssh://[USER@]HOST[:PORT], unix:PATH, local
    QString agentPath; ///< the agent's path on an ssh host ("" = searched for)
    QString view; ///< empty: the RDT dashboard when data flows, else the Machine panel
    QString cpuidDump;
    QString screenshot;
    QString compareFile; ///< with --open A: the compare window of A and this file (File > Compare with...)
    QString comparePage; ///< table (default), timelines, ways, overlay, graph
    QString sweepGroup; ///< --sweep GROUP: the Experiments page sweeps GROUP's ways (alone) at start
    QString lesson; ///< a lesson (built-in name or file) to start on the simulated machine (docs/LESSONS.md)
    double afterSeconds = 2.0;
    bool sourceGiven = false; ///< --source was on the command line (not only its default)
    /// Nothing on the command line names what to look at: the window opens on its start page.
    bool startPage = false;
    QStringList warnings;

    static QStringList viewNames();
};

/// Parses argv (including argv[0]). On a usage error returns false with the message in *error (exit code 2).
bool parseAppOptions(const QStringList& arguments, AppOptions* options, QString* error, QString* helpText = nullptr);
