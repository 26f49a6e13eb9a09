// SPDX-License-Identifier: GPL-3.0-or-later
// Idle cost of the default dashboard (issue 16 benchmark, target <= 5 % of one core): the real `rdtscope` binary on
// the simulated machine with nobody touching it, offscreen (QT_QPA_PLATFORM=offscreen: every frame is still painted
// into the window's backing store). After a warm-up, the CPU time of the whole process and of its GUI thread (the
// main thread) over the measured window is read from /proc/PID/stat and /proc/PID/task/TID/stat. Runs twice: as
// started with no options, and with `--source sim`. RDTSCOPE_BENCH_SECONDS shortens the 60 s window.

#include <benchmark/benchmark.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

/// utime + stime of a /proc stat file, in clock ticks (fields 14 and 15; the comm field may hold spaces).
long long cpuTicks(const std::string& statPath)
{
    std::ifstream in(statPath);
    std::string line;
    if (!std::getline(in, line)) return -1;
    const auto close = line.rfind(')');
    if (close == std::string::npos) return -1;
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
        if (i == 14) utime = std::atoll(field.c_str());
        if (i == 15) stime = std::atoll(field.c_str());
    }
    return utime + stime;
}

pid_t startGui(const std::vector<std::string>& args)
{
    const pid_t pid = ::fork();
    if (pid != 0) return pid;
    ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    ::setenv("XDG_CONFIG_HOME", "/tmp/rdtscope-bench-gui-idle", 1); // no saved layout, no recent files
    std::vector<char*> argv { const_cast<char*>(RDTSCOPE_GUI) };
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (!std::getenv("RDTSCOPE_BENCH_VERBOSE")) {
        std::freopen("/dev/null", "w", stdout);
        std::freopen("/dev/null", "w", stderr);
    }
    ::execv(RDTSCOPE_GUI, argv.data());
    std::_Exit(127);
}

void BM_IdleDashboard(benchmark::State& state, std::vector<std::string> args)
{
    const char* env = std::getenv("RDTSCOPE_BENCH_SECONDS");
    const int seconds = env ? std::max(5, std::atoi(env)) : 60;
    const double tck = static_cast<double>(::sysconf(_SC_CLK_TCK));
    for (auto _ : state) {
        const pid_t pid = startGui(args);
        std::this_thread::sleep_for(std::chrono::seconds(8)); // start-up, first fill of the simulated caches
        const std::string proc = "/proc/" + std::to_string(pid);
        const long long all0 = cpuTicks(proc + "/stat"),
                        gui0 = cpuTicks(proc + "/task/" + std::to_string(pid) + "/stat");
        std::this_thread::sleep_for(std::chrono::seconds(seconds));
        const long long all1 = cpuTicks(proc + "/stat"),
                        gui1 = cpuTicks(proc + "/task/" + std::to_string(pid) + "/stat");
        ::kill(pid, SIGTERM);
        int status = 0;
        ::waitpid(pid, &status, 0);
        if (all0 < 0 || all1 < 0) {
            state.SkipWithError("rdtscope exited before the measurement ended (RDTSCOPE_BENCH_VERBOSE=1 shows why)");
            return;
        }
        const double total = 100.0 * static_cast<double>(all1 - all0) / tck / seconds;
        const double gui = 100.0 * static_cast<double>(gui1 - gui0) / tck / seconds;
        state.counters["cpu_pct_of_one_core"] = total;
        state.counters["gui_thread_pct"] = gui;
        state.counters["other_threads_pct"] = total - gui;
        state.counters["seconds"] = seconds;
        std::printf("idle dashboard %s: %.1f %% of one core over %d s (GUI thread %.1f %%, simulator and sampler "
                    "%.1f %%); target <= 5 %%\n",
            args.empty() ? "(no options)" : "--source sim", total, seconds, gui, total - gui);
    }
}

} // namespace

BENCHMARK_CAPTURE(BM_IdleDashboard, default, std::vector<std::string> {})->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(BM_IdleDashboard, source_sim, std::vector<std::string> { "--source", "sim" })
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_MAIN();
