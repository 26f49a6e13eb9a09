// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli selftest: the resctrl conformance suite (capture/selftest) on this machine's resctrl, a saved copy of
// one, or the simulated machine; read-only unless --write, which also runs the effect checks with streamers
// (processes on hardware, simulated threads on --source sim). --save DIR keeps an anonymised copy of the tree and the
// CPUID for a bug report. README "Check a real machine", docs/RESCTRL.md "Self-test".
#include "Commands.h"
#include "Options.h"
#include "core/PosixFs.h"
#include "engine/SelftestSimMachine.h"
#include "platform/CpuidDump.h"
#include "platform/LiveCpuid.h"
#include "rdt/MountType.h"
#include "selftest/AnonymisedTreeCopy.h"
#include "selftest/ResctrlAbsence.h"
#include "selftest/ResctrlSelftest.h"
#include "selftest/StreamerProcess.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>

namespace rdt::cli {

namespace {

struct SelftestCliOptions {
    std::string source = "resctrl";
    std::string preset;
    std::string saveDir;
    bool write = false;
};

std::atomic<bool> g_cancel { false };
volatile std::sig_atomic_t g_signal = 0;

extern "C" void onSelftestSignal(int sig)
{
    g_signal = sig;
    g_cancel.store(true);
}

void printResult(const selftest::CheckResult& r)
{
    std::printf("%s %s (%s)%s%s\n", selftest::verdictName(r.verdict), r.name.c_str(), r.section.c_str(),
        r.reason.empty() ? "" : ": ", r.reason.c_str());
    std::fflush(stdout);
}

Status saveCpuid(const std::string& file, const std::string& json)
{
    std::ofstream out(file, std::ios::binary);
    out << json;
    return out ? Status {} : errnoError(EIO, "cannot write " + file);
}

int runSelftest(const SelftestCliOptions& o)
{
    std::shared_ptr<Fs> fs;
    std::shared_ptr<SelftestSimMachine> simulated;
    std::unique_ptr<selftest::StreamerProcess> streamer;
    std::string cpuidJson, what;
    if (o.source == "sim") {
        SelftestSimOptions so;
        so.preset = o.preset;
        so.cancel = &g_cancel;
        auto m = SelftestSimMachine::create(so);
        if (!m) {
            // A preset without RDT: the emulated kernel has no resctrl to mount, so there is nothing to test.
            const bool noRdt = m.error().code == ENODEV;
            std::fprintf(stderr, "rdtscope-cli selftest: %s%s\n", noRdt ? "nothing can be tested: " : "",
                m.error().toString().c_str());
            return noRdt ? ExitUnavailable : ExitFailure;
        }
        simulated = *m;
        fs = simulated->resctrl();
        cpuidJson = simulated->cpuidJson();
        what = "the emulated resctrl of the " + simulated->describeMachine() + " (SIMULATED, not this machine)";
    } else if (o.source == "resctrl" || o.source.rfind("resctrl:", 0) == 0) {
        if (!o.preset.empty()) {
            std::fprintf(stderr, "rdtscope-cli selftest: --preset names a simulated CPU: it goes with --source sim\n");
            return ExitUsage;
        }
        const bool standard = o.source == "resctrl";
        const std::string root = standard ? "/sys/fs/resctrl" : o.source.substr(8);
        struct stat st { };
        const bool tree = ::stat((root + "/info").c_str(), &st) == 0 || ::stat((root + "/schemata").c_str(), &st) == 0;
        if (!tree) {
            if (standard) {
                const auto absent = selftest::ResctrlAbsence::diagnose(root);
                std::fprintf(stderr,
                    "rdtscope-cli selftest: nothing can be tested: %s.\nfix: %s.\nWithout RDT hardware, test against "
                    "the simulated machine: rdtscope-cli selftest --source sim, or through a mounted simulated "
                    "resctrl: rdtscope-cli sim --namespace -- rdtscope-cli selftest\n",
                    absent.why.c_str(), absent.fix.c_str());
            } else {
                std::fprintf(stderr,
                    "rdtscope-cli selftest: nothing can be tested: %s holds neither info/ nor schemata, so it is no "
                    "resctrl tree (a copy made with selftest --save DIR opens as --source resctrl:DIR)\n",
                    root.c_str());
            }
            return ExitUnavailable;
        }
        const std::string type = mountTypeAt(root);
        if (o.write && type.empty()) {
            std::fprintf(stderr,
                "rdtscope-cli selftest: --write: %s is not a mounted resctrl but a copy of one (no kernel behind its "
                "files); run the read-only checks without --write\n",
                root.c_str());
            return ExitUsage;
        }
        std::string unobservable;
        if (type.rfind("fuse", 0) == 0)
            unobservable = "the resctrl at " + root + " is served through FUSE (" + type
                + ", as rdtscope-cli sim --namespace serves the simulated machine): the streamer would be a host "
                  "process, which the simulated machine does not model, so its cache and memory use cannot show in "
                  "these counters (run rdtscope-cli selftest --source sim --write for the simulated effects)";
        streamer = std::make_unique<selftest::StreamerProcess>(&g_cancel, unobservable);
        fs = std::make_shared<PosixFs>(root);
        if (!o.saveDir.empty()) {
            LiveCpuid live;
            cpuidJson = cpuidTableToJson(snapshotCpuid(live));
        }
        what = "resctrl at " + root
            + (type.empty()                      ? " (a copy, no kernel behind it)"
                    : type.rfind("fuse", 0) == 0 ? " (" + type
                        + ": served by a program, e.g. the SIMULATED machine of "
                          "rdtscope-cli sim)"
                                                 : " (" + type + ")");
    } else {
        std::fprintf(stderr,
            "rdtscope-cli selftest: --source %s: the self-test checks a resctrl tree: --source resctrl (default), "
            "resctrl:PATH (a mount or a saved copy) or sim\n",
            o.source.c_str());
        return ExitUsage;
    }

    selftest::SelftestOptions so;
    so.write = o.write;
    so.cancel = &g_cancel;
    so.workload = simulated ? static_cast<selftest::StreamWorkload*>(simulated.get()) : streamer.get();
    selftest::ResctrlSelftest suite(fs, so);
    if (auto s = suite.open(); !s) {
        std::fprintf(stderr, "rdtscope-cli selftest: nothing can be tested: %s\n", s.error().toString().c_str());
        return ExitUnavailable;
    }
    std::printf("# selftest of %s, %s\n", what.c_str(),
        o.write ? "--write: groups rdtscope-selftest-* are made and removed" : "read-only");
    if (o.write && so.workload) std::printf("# effect checks run %s\n", so.workload->describe().c_str());

    if (!o.saveDir.empty()) {
        auto saved = selftest::AnonymisedTreeCopy::save(*fs, o.saveDir);
        if (!saved) {
            std::fprintf(stderr, "rdtscope-cli selftest: --save: %s\n", saved.error().toString().c_str());
            return ExitFailure;
        }
        if (auto s = saveCpuid(o.saveDir + "/cpuid.txt", cpuidJson); !s) {
            std::fprintf(stderr, "rdtscope-cli selftest: --save: %s\n", s.error().toString().c_str());
            return ExitFailure;
        }
        std::printf("# saved %u files of the tree (groups renamed, no tasks) and the CPUID%s to %s: they open as "
                    "--source resctrl:%s and info --cpuid-dump %s/cpuid.txt\n",
            *saved, simulated ? " of the simulated CPU" : "", o.saveDir.c_str(), o.saveDir.c_str(), o.saveDir.c_str());
    }

    // SIGINT/SIGTERM end the running check; every group made is removed before exiting.
    struct sigaction on {
    }, oldInt {}, oldTerm {};
    on.sa_handler = onSelftestSignal;
    sigemptyset(&on.sa_mask);
    sigaction(SIGINT, &on, &oldInt);
    sigaction(SIGTERM, &on, &oldTerm);
    for (const auto& leftover : suite.removeLeftovers())
        std::printf("# removed %s, left by an earlier run\n", leftover.c_str());
    unsigned passed = 0, failed = 0, skipped = 0;
    suite.run([&](const selftest::CheckResult& r) {
        printResult(r);
        (r.verdict == selftest::Verdict::Pass ? passed : r.verdict == selftest::Verdict::Fail ? failed : skipped)++;
    });
    suite.cleanup();
    streamer.reset(); // stops and reaps any streamer still running
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGTERM, &oldTerm, nullptr);
    if (g_signal) {
        std::printf("# interrupted by signal %d: the groups made were removed\n", int(g_signal));
        return 128 + int(g_signal);
    }
    std::printf(
        "# %u passed, %u failed, %u skipped%s\n", passed, failed, skipped, simulated ? " (SIMULATED machine)" : "");
    return failed ? ExitFailure : ExitOk;
}

} // namespace

CommandRun defineSelftest(CLI::App& cmd)
{
    cmd.footer("Prints one line per check: PASS, FAIL or SKIP, its name, the resctrl.rst or SDM section it tests,\n"
               "and why it failed or was skipped. Exit 0 without FAIL, 1 on any FAIL, 3 when nothing can be tested\n"
               "(no resctrl here: the message says why and what would fix it).");
    auto o = std::make_shared<SelftestCliOptions>();
    cmd.add_option("--source", o->source,
           "resctrl (default: /sys/fs/resctrl), resctrl:PATH (a mount or a copy saved with --save), or sim (the "
           "simulated machine)")
        ->type_name("SRC");
    cmd.add_option("--preset", o->preset, "with --source sim: the simulated CPU preset (see sim --list)")
        ->type_name("ID");
    cmd.add_flag("--write", o->write,
        "also make groups rdtscope-selftest-* and run the checks that write, and the effect checks with a "
        "streamer (CAT fence, MBA cap, MBM count); everything made is removed, also on SIGINT/SIGTERM");
    cmd.add_option("--save", o->saveDir,
           "write an anonymised copy of the tree (info/, schemata, no task PIDs, groups renamed) and cpuid.txt to "
           "DIR (new or empty)")
        ->type_name("DIR");
    return [o] { return runSelftest(*o); };
}

} // namespace rdt::cli
