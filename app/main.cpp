// SPDX-License-Identifier: GPL-3.0-or-later
#include "AppOptions.h"
#include "BuildInfo.h"
#include "MainWindow.h"
#include "RecentFiles.h"
#include "SourceFactory.h"
#include "lesson/LessonRun.h"
#include "views/ColourScheme.h"
#include "views/ExperimentsPage.h"

#include "models/CompareSession.h"
#include "models/MachineDescription.h"
#include "views/CompareWindow.h"
#include "views/PmuPages.h"

#include "models/PmuSession.h"

#include <QApplication>
#include <QPointer>
#include <QStatusBar>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace {
/// The offscreen platform (--screenshot without a display, the tests) has no window manager: it cannot pass size
/// hints on or raise a window, and Qt says so on every start. Those two lines carry no information there; every
/// other message, and every message on a real display, goes through untouched.
QtMessageHandler g_defaultHandler = nullptr;
void quietOffscreen(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type == QtWarningMsg && QGuiApplication::platformName() == QLatin1String("offscreen")
        && (message == QLatin1String("This plugin does not support propagateSizeHints()")
            || message == QLatin1String("This plugin does not support raise()")))
        return;
    g_defaultHandler(type, context, message);
}
} // namespace

int main(int argc, char** argv)
{
    std::signal(SIGXFSZ, SIG_IGN); // a recording past `ulimit -f` fails with EFBIG and says so (setrlimit(2))
    // Options first, without a QApplication: --help, --version and usage errors work with no display at all.
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    AppOptions options;
    QString error;
    QString help;
    if (!parseAppOptions(arguments, &options, &error, &help)) {
        if (error.isEmpty()) { // --help / --version
            const bool version
                = arguments.contains(QStringLiteral("--version")) || arguments.contains(QStringLiteral("-v"));
            std::fputs(
                version ? "rdtscope " RDTSCOPE_VERSION " (git " RDTSCOPE_GIT_REVISION ")\n" : qPrintable(help), stdout);
            return 0;
        }
        std::fprintf(stderr, "rdtscope: %s\n%s", qPrintable(error), qPrintable(help));
        return 2;
    }
    const bool haveDisplay = !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
    if (!haveDisplay) {
        if (options.screenshot.isEmpty()) {
            std::fprintf(stderr,
                "rdtscope: no display (DISPLAY and WAYLAND_DISPLAY are unset), so the window cannot open.\n"
                "  Run it under a virtual display:  xvfb-run -a rdtscope\n"
                "  Render a screenshot offscreen:   rdtscope --screenshot out.png\n"
                "  Or use the command-line tool:    rdtscope-cli info | monitor | record\n");
            return 2;
        }
        qputenv("QT_QPA_PLATFORM", "offscreen"); // --screenshot needs no display
    }

    g_defaultHandler = qInstallMessageHandler(quietOffscreen);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rdtscope"));
    QApplication::setApplicationVersion(QStringLiteral(RDTSCOPE_VERSION));
    QApplication::setOrganizationName(QStringLiteral("rdtscope"));
    // Wayland compositors match the window to its installed .desktop file (and icon) by this name.
    QGuiApplication::setDesktopFileName(QStringLiteral("org.rdtscope.rdtscope"));
    colourscheme::apply(colourscheme::saved()); // View > Colour scheme, before any widget takes the palette
    for (const QString& w : std::as_const(options.warnings))
        std::fprintf(stderr, "rdtscope: warning: %s\n", qPrintable(w));

    MainWindow window;
    window.setStartOptions(options);
    // The GUI never needs root: privileged work belongs to the agent. Said once, with the way to get there.
    const bool runsAsRoot = ::geteuid() == 0;
    if (runsAsRoot)
        std::fprintf(stderr,
            "rdtscope: warning: running as root; the GUI does not need to. Run it as your user and reach the "
            "hardware through the agent: rdtscope --connect local (pkexec asks for authorization)\n");
    auto machine = describeMachine(options.cpuidDump);
    if (!machine) {
        std::fprintf(stderr, "rdtscope: %s\n", machine.error().toString().c_str());
        return 1;
    }
    window.setMachine(machine.value());

    // The PMU pages take --open FILE when it is a perf.data file, and start the simulated PMU for a PMU --view.
    const bool pmuView = options.view == QLatin1String("tma") || options.view == QLatin1String("callgraph")
        || options.view == QLatin1String("latency") || options.view == QLatin1String("topdown")
        || options.view == QLatin1String("bottomup") || options.view == QLatin1String("flame");
    AppOptions rdtOptions = options;
    // A CPUID dump and nothing else to look at: the window is about that CPU (its Machine page), no source runs.
    const bool cpuidOnly = !options.cpuidDump.isEmpty() && !options.sourceGiven && options.connect.isEmpty()
        && options.openFile.isEmpty() && options.lesson.isEmpty() && !pmuView;
    bool perfDataOnly = false; // a perf.data file and no --source: the window is about the file alone
    if (!options.openFile.isEmpty() && window.pmuPages()->startFromOptions(options.openFile, options.source, pmuView)) {
        rdtOptions.openFile.clear();
        perfDataOnly = !options.sourceGiven && options.connect.isEmpty();
    } else if (options.openFile.isEmpty() && !options.connect.isEmpty() && pmuView) {
        // Connected, the PMU pages' capture runs on the agent: start it once that connection is open.
        QObject::connect(
            &window, &MainWindow::pmuConnectFinished, &window,
            [&window, source = options.source, pmuView](bool ok, const QString&) {
                if (ok) window.pmuPages()->startFromOptions({}, source, pmuView);
            },
            Qt::SingleShotConnection);
    } else if (options.openFile.isEmpty() && !options.startPage && !cpuidOnly)
        window.pmuPages()->startFromOptions({}, options.source, pmuView);
    // A lesson opens its own simulated machine (below, once the layout is restored so its dock shows).
    const bool lesson = !options.lesson.isEmpty();
    // Nothing named on the command line: the start page, and no source until the user picks one.
    const bool noSource = lesson || options.startPage || perfDataOnly || cpuidOnly;
    auto source = noSource ? rdt::Result<SourceBundle>(SourceBundle {}) : openSource(rdtOptions);
    bool haveData = lesson || perfDataOnly || cpuidOnly;
    if (options.startPage) {
        window.showStartPage();
    } else if (cpuidOnly) {
        QString why;
        if (!window.openCpuidDump(options.cpuidDump, &why)) { // describeMachine read it above: only a race fails
            std::fprintf(stderr, "rdtscope: %s\n", qPrintable(why));
            return 1;
        }
    } else if (source && !noSource) {
        window.setSource(std::move(source.value()));
        haveData = true;
    } else if (!source) {
        const QString reason = QString::fromStdString(source.error().toString());
        std::fprintf(stderr, "rdtscope: %s\n", qPrintable(reason));
        if (!options.screenshot.isEmpty()) {
            // A perf.data file given with --open is imported in the background: a failed import fails the screenshot.
            QObject::connect(window.pmuPages()->session(), &PmuSession::importFinished, &window,
                [](bool ok, const QString& message) {
                    if (ok) return;
                    std::fprintf(stderr, "rdtscope: %s\nrdtscope: no screenshot written: the file did not open\n",
                        qPrintable(message));
                    QApplication::exit(1);
                });
            // A screenshot of a window with no data is not what was asked for: say why and fail, at once.
            std::fprintf(stderr, "rdtscope: no screenshot written: the source did not open\n");
            return 1;
        }
        window.setSourceError(reason);
    }
    if (options.screenshot.isEmpty()) { // screenshots show the default layout and leave no trace in the settings
        window.restoreLayout();
        window.setRememberRecentFiles(true);
        if (haveData && !rdtOptions.openFile.isEmpty()) RecentFiles::remember(rdtOptions.openFile); // a session
    }
    if (lesson) {
        QString why;
        if (!window.startLesson(options.lesson, &why)) {
            std::fprintf(stderr, "rdtscope: --lesson %s: %s\n", qPrintable(options.lesson), qPrintable(why));
            return 1;
        }
    }
    // A lesson's step shows the page it says to look at (its `look` line), unless --view asks for another.
    const bool lessonLooks = lesson && window.lessonRun() && window.lessonRun()->step().look;
    if (!options.startPage && (!lessonLooks || !options.view.isEmpty()))
        window.showView(options.view.isEmpty() ? (perfDataOnly ? QStringLiteral("callgraph")
                                : haveData                     ? QStringLiteral("rdt")
                                                               : QStringLiteral("machine"))
                                               : options.view);
    window.show();
    if (!options.sweepGroup.isEmpty()) window.experimentsPage()->startSweepOf(options.sweepGroup, /*alone=*/true);
    if (runsAsRoot && options.screenshot.isEmpty())
        window.statusBar()->showMessage(QObject::tr("Running as root: the GUI does not need to. Run it as your user "
                                                    "with --connect local (the agent, through pkexec)."),
            15000);
    QPointer<CompareWindow> compare;
    if (!options.compareFile.isEmpty()) {
        compare = window.compareWith(options.openFile, options.compareFile);
        compare->showPage(options.comparePage);
    }

    if (!options.screenshot.isEmpty()) {
        // A perf.data file given with --open is imported in the background: a failed import fails the screenshot.
        QObject::connect(
            window.pmuPages()->session(), &PmuSession::importFinished, &window, [](bool ok, const QString& message) {
                if (ok) return;
                std::fprintf(stderr, "rdtscope: %s\nrdtscope: no screenshot written: the file did not open\n",
                    qPrintable(message));
                QApplication::exit(1);
            });
    }
    if (!options.screenshot.isEmpty() && compare) {
        QTimer::singleShot(static_cast<int>(options.afterSeconds * 1000.0), compare, [compare, &options] {
            compare->session()->waitForLoad();
            QApplication::processEvents();
            const bool ok = compare->grab().save(options.screenshot);
            std::fprintf(ok ? stdout : stderr, "rdtscope: %s %s\n", ok ? "wrote" : "cannot write",
                qPrintable(options.screenshot));
            QApplication::exit(ok ? 0 : 1);
        });
    } else if (!options.screenshot.isEmpty()) {
        // Let the source run (the frame pump fills the timelines), then grab, write, exit.
        QTimer::singleShot(static_cast<int>(options.afterSeconds * 1000.0), &window, [&window, &options] {
            QString why;
            if (!window.saveScreenshot(options.screenshot, &why)) {
                std::fprintf(stderr, "rdtscope: %s\n", qPrintable(why));
                QApplication::exit(1);
                return;
            }
            std::fprintf(stdout, "rdtscope: wrote %s (%dx%d)\n", qPrintable(options.screenshot), window.width(),
                window.height());
            QApplication::exit(0);
        });
    }
    return QApplication::exec();
}
