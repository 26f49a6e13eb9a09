// SPDX-License-Identifier: GPL-3.0-or-later
#include "AppOptions.h"

#include "protocol/AgentUrl.h"

#include <QCommandLineParser>
#include <QCoreApplication>

QStringList AppOptions::viewNames()
{
    return { QStringLiteral("machine"), QStringLiteral("rdt"), QStringLiteral("tma"), QStringLiteral("callgraph"),
        QStringLiteral("latency"), QStringLiteral("experiments"), QStringLiteral("interference"),
        QStringLiteral("topdown"), QStringLiteral("bottomup"), QStringLiteral("flame") };
}

bool parseAppOptions(const QStringList& arguments, AppOptions* options, QString* error, QString* helpText)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("main",
        "rdtscope: how processes share the last-level cache and memory bandwidth (Intel RDT), live, recorded or "
        "on a simulated Xeon."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption source(QStringLiteral("source"),
        QCoreApplication::translate("main",
            "Data source: auto (default; real RDT when present, else the simulated machine), sim, sim-msr[:DIR], "
            "resctrl[:PATH], msr."),
        QStringLiteral("SRC"), QStringLiteral("auto"));
    const QCommandLineOption scenario(QStringLiteral("scenario"),
        QCoreApplication::translate("main", "Scenario of the simulated machine (default noisy-neighbour)."),
        QStringLiteral("NAME"));
    const QCommandLineOption preset(QStringLiteral("preset"),
        QCoreApplication::translate(
            "main", "With --source sim: simulate this CPU preset instead of the scenario's (e.g. epyc-genoa)."),
        QStringLiteral("ID"));
    const QCommandLineOption open(QStringLiteral("open"),
        QCoreApplication::translate("main", "Replay a recorded session (.rdts) or import a perf.data file."),
        QStringLiteral("FILE"));
    const QCommandLineOption view(QStringLiteral("view"),
        QCoreApplication::translate("main",
            "Page to show first: machine, rdt, tma, callgraph, latency, experiments, interference, or the call-graph "
            "page's "
            "topdown, bottomup or flame tab."),
        QStringLiteral("NAME"));
    const QCommandLineOption sweep(QStringLiteral("sweep"),
        QCoreApplication::translate("main",
            "Open the Experiments page and sweep GROUP's cache ways alone at once (the other groups get the rest)."),
        QStringLiteral("GROUP"));
    const QCommandLineOption dump(QStringLiteral("cpuid-dump"),
        QCoreApplication::translate("main",
            "Describe another CPU in the Machine panel from a CPUID dump (AIDA64/InstLatx64 text, cpuid -r, or "
            "rdtscope JSON)."),
        QStringLiteral("FILE"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QCoreApplication::translate("main", "Render the window (works offscreen), write it as PNG to FILE and exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption after(QStringLiteral("after"),
        QCoreApplication::translate("main", "With --screenshot: seconds to let the data source run first (default 2)."),
        QStringLiteral("SECONDS"), QStringLiteral("2"));
    const QCommandLineOption compare(QStringLiteral("compare"),
        QCoreApplication::translate("main", "Compare the --open file (A) with FILE (B) in the compare window."),
        QStringLiteral("FILE"));
    const QCommandLineOption comparePage(QStringLiteral("compare-page"),
        QCoreApplication::translate("main", "Compare window page: table, timelines, ways, overlay or graph."),
        QStringLiteral("PAGE"));
    const QCommandLineOption connectTo(QStringLiteral("connect"),
        QCoreApplication::translate("main",
            "Run the source on an rdtscope-agent: ssh://[USER@]HOST[:PORT] (the system ssh client), unix:PATH (the "
            "agent's socket) or local (this machine's agent through pkexec). The GUI itself never needs root."),
        QStringLiteral("URL"));
    const QCommandLineOption agent(QStringLiteral("agent"),
        QCoreApplication::translate("main", "With --connect ssh://...: the agent's path on the server."),
        QStringLiteral("PATH"));
    const QCommandLineOption lesson(QStringLiteral("lesson"),
        QCoreApplication::translate("main",
            "Start a lesson (rdtscope-cli lesson --list names them, or a lesson file) on the simulated machine: the "
            "Lessons panel opens on step one."),
        QStringLiteral("NAME"));
    parser.addOptions({ source, scenario, preset, open, view, dump, screenshot, after, compare, comparePage, connectTo,
        agent, sweep, lesson });

    if (helpText)
        *helpText = parser.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("rdtscope"));
    if (!parser.parse(arguments)) {
        *error = parser.errorText();
        return false;
    }
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("version"))) {
        *error = QString();
        return false;
    }
    if (!parser.positionalArguments().isEmpty()) {
        *error
            = QCoreApplication::translate("main", "unexpected argument '%1'").arg(parser.positionalArguments().first());
        return false;
    }
    options->source = parser.value(source);
    options->scenario = parser.value(scenario);
    options->preset = parser.value(preset);
    options->openFile = parser.value(open);
    options->connect = parser.value(connectTo);
    options->agentPath = parser.value(agent);
    if (!options->agentPath.isEmpty() && options->connect.isEmpty()) {
        *error = QCoreApplication::translate(
            "main", "--agent PATH names the agent on the server: it goes with --connect URL");
        return false;
    }
    if (!options->connect.isEmpty()) {
        if (auto url = rdt::protocol::parseAgentUrl(options->connect.toStdString()); !url) {
            *error = QCoreApplication::translate("main", "--connect: %1")
                         .arg(QString::fromStdString(url.error().toString()));
            return false;
        }
        if (!options->openFile.isEmpty()) {
            *error
                = QCoreApplication::translate("main", "--connect runs a live source; --open replays a file: give one");
            return false;
        }
    }
    options->lesson = parser.value(lesson);
    if (!options->lesson.isEmpty() && (!options->openFile.isEmpty() || !options->connect.isEmpty())) {
        *error = QCoreApplication::translate(
            "main", "--lesson runs on the simulated machine in this process: it goes without --open and --connect");
        return false;
    }
    options->view = parser.value(view).toLower();
    options->sweepGroup = parser.value(sweep);
    if (!options->sweepGroup.isEmpty() && options->view.isEmpty()) options->view = QStringLiteral("experiments");
    options->cpuidDump = parser.value(dump);
    options->screenshot = parser.value(screenshot);
    options->compareFile = parser.value(compare);
    options->comparePage = parser.value(comparePage).toLower();
    if (!options->compareFile.isEmpty() && options->openFile.isEmpty()) {
        *error = QCoreApplication::translate("main", "--compare B needs --open A");
        return false;
    }
    if (!options->view.isEmpty() && !AppOptions::viewNames().contains(options->view)) {
        *error = QCoreApplication::translate("main", "unknown view '%1' (use %2)")
                     .arg(options->view, AppOptions::viewNames().join(QStringLiteral(", ")));
        return false;
    }
    bool ok = false;
    options->afterSeconds = parser.value(after).toDouble(&ok);
    // Written so that NaN fails too (QString::toDouble accepts "nan" and "inf").
    if (!ok || !(options->afterSeconds >= 0 && options->afterSeconds <= 3600)) {
        *error = QCoreApplication::translate("main", "--after needs a number of seconds between 0 and 3600");
        return false;
    }
    options->sourceGiven = parser.isSet(source);
    options->startPage = !parser.isSet(source) && options->scenario.isEmpty() && options->preset.isEmpty()
        && options->openFile.isEmpty() && options->connect.isEmpty() && options->lesson.isEmpty()
        && options->view.isEmpty() && options->cpuidDump.isEmpty() && options->compareFile.isEmpty();
    if (parser.isSet(after) && options->screenshot.isEmpty())
        options->warnings.append(QCoreApplication::translate("main", "--after only applies with --screenshot"));
    if (parser.isSet(source) && !options->openFile.isEmpty())
        options->warnings.append(QCoreApplication::translate("main", "--open replays a file; --source is ignored"));
    return true;
}
