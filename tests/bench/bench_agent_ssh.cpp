// SPDX-License-Identifier: GPL-3.0-or-later
// The remote benchmark: rdtscope-agent behind a real OpenSSH server on 127.0.0.1 (tests/agent/sshd-sandbox,
// throwaway keys), serving a resctrl tree of 64 groups x 4 domains on tmpfs whose counters this program moves at
// 10 Hz like a busy machine's; the agent's sampler thread polls it at 10 Hz and streams the batches to a
// RemoteEngine here (remote/RemoteEngine.h), exactly as `rdtscope-cli --connect` does. Prints:
//   - protocol bytes per second arriving from the agent (target <= 50 kB/s; ssh's own framing and encryption
//     come on top and are not counted),
//   - the agent's CPU (user + system from /proc, target <= 2 % of a core),
//   - latency from the agent's counter read (the batch's CLOCK_MONOTONIC time; one machine, one clock) to the
//     batch coming out of RemoteEngine::drainEvents() here, p50/p99 (target p99 <= 50 ms),
//   - then the same source opened as the GUI opens it (app/SourceFactory.h openConnectedSource) and drained by the
//     GUI's FramePump at its 30 Hz frame rate: latency from the counter read to the batch in a frame (the issue's
//     figure: "to the sample arriving in the GUI's frame pump").
// Without sshd it says so and measures nothing.
#include "core/Time.h"
#include "remote/RemoteEngine.h"

#if RDTSCOPE_BENCH_GUI_PUMP
#include "AppOptions.h"
#include "SourceFactory.h"
#include "models/FramePump.h"

#include <QCoreApplication>
#include <QTimer>
#endif

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace {
using namespace rdt;

constexpr int kGroups = 64;
constexpr int kDomains = 4;
constexpr int kSeconds = 20;

std::string shell(const std::string& cmd)
{
    std::string out;
    if (std::FILE* p = ::popen(cmd.c_str(), "r")) {
        char buf[4096];
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
            out.append(buf, n);
        ::pclose(p);
    }
    return out;
}

/// 64 groups x 4 domains on tmpfs; counter files rewritten in place with fixed-width values (no torn lengths).
struct Tree {
    std::string root;
    struct Counter {
        int fd;
        std::uint64_t value;
        std::uint64_t perTick;
    };
    std::vector<Counter> counters;
    Tree()
    {
        char templ[] = "/dev/shm/rdt-agent-bench-XXXXXX";
        root = ::mkdtemp(templ);
        auto put = [](const std::string& p, const std::string& text) {
            std::filesystem::create_directories(std::filesystem::path(p).parent_path());
            std::ofstream(p) << text;
        };
        put(root + "/schemata", "L3:0=fffff;1=fffff;2=fffff;3=fffff\n");
        put(root + "/info/L3/cbm_mask", "fffff\n");
        put(root + "/info/L3/num_closids", "128\n");
        put(root + "/info/L3_MON/num_rmids", "256\n");
        put(root + "/info/L3_MON/mon_features", "llc_occupancy\nmbm_total_bytes\nmbm_local_bytes\n");
        std::mt19937_64 rng(7);
        for (int g = 0; g < kGroups; ++g) {
            const std::string path = g == 0 ? root : root + "/g" + std::to_string(g);
            for (int d = 0; d < kDomains; ++d) {
                char dir[32];
                std::snprintf(dir, sizeof dir, "/mon_data/mon_L3_%02d/", d);
                const double gbps = 0.1 + 1.9 * static_cast<double>((g * kDomains + d) % 17) / 16.0;
                const std::pair<const char*, std::uint64_t> files[]
                    = { { "llc_occupancy", 0 }, { "mbm_total_bytes", static_cast<std::uint64_t>(gbps * 1e8) },
                          { "mbm_local_bytes", static_cast<std::uint64_t>(gbps * 0.7e8) } };
                for (const auto& [name, perTick] : files) {
                    const auto f = path + dir + name;
                    put(f, "");
                    Counter c { ::open(f.c_str(), O_WRONLY | O_CLOEXEC), (rng() % 600) * 65536, perTick };
                    counters.push_back(c);
                }
            }
        }
        tick(rng);
    }
    /// One 100 ms step of traffic: MBM counters grow by about their rate (with noise), occupancy wanders.
    void tick(std::mt19937_64& rng)
    {
        for (auto& c : counters) {
            if (c.perTick == 0) {
                const auto step = (static_cast<std::int64_t>(rng() % 5) - 2) * 65536;
                if (rng() % 4 == 0)
                    c.value = static_cast<std::uint64_t>(
                        std::max<std::int64_t>(0, static_cast<std::int64_t>(c.value) + step));
            } else {
                c.value += c.perTick * (900 + rng() % 200) / 1000;
            }
            char text[32];
            const int n = std::snprintf(text, sizeof text, "%020llu\n", static_cast<unsigned long long>(c.value));
            (void)::pwrite(c.fd, text, static_cast<std::size_t>(n), 0);
        }
    }
    ~Tree()
    {
        for (auto& c : counters)
            ::close(c.fd);
        std::filesystem::remove_all(root);
    }
};

double cpuSecondsOf(pid_t pid)
{
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return -1;
    std::istringstream rest(stat.substr(close + 2));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
        if (i == 14) utime = std::stoull(field);
        if (i == 15) stime = std::stoull(field);
    }
    return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

struct Percentiles {
    std::vector<double> ms;
    double at(double p)
    {
        std::sort(ms.begin(), ms.end());
        return ms.empty() ? 0.0
                          : ms[std::min(ms.size() - 1, static_cast<std::size_t>(p * static_cast<double>(ms.size())))];
    }
    double max() const { return ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()); }
};

#if RDTSCOPE_BENCH_GUI_PUMP
/// The source opened as the GUI's File > Connect opens it, drained by the GUI's frame pump for `seconds`.
void measureGuiFramePump(const std::string& url, const std::string& tree, int seconds)
{
    AppOptions options;
    options.connect = QString::fromStdString(url);
    options.source = QString::fromStdString("resctrl:" + tree);
    auto bundle = openConnectedSource(options);
    if (!bundle) {
        std::printf("  GUI frame pump: not measured: %s\n", bundle.error().toString().c_str());
        return;
    }
    FramePump pump; // 30 Hz, as in the window
    Percentiles latency;
    QObject::connect(&pump, &FramePump::drained, [&latency](const DrainedFrame& frame) {
        const auto now = rdt::monotonicNs();
        for (const auto& b : frame.batches)
            latency.ms.push_back(static_cast<double>(now - b.timeNs) * 1e-6);
    });
    pump.setFeed(std::move(bundle->feed));
    pump.start();
    QTimer::singleShot(seconds * 1000, QCoreApplication::instance(), &QCoreApplication::quit);
    QCoreApplication::exec();
    pump.stop();
    std::printf("  latency counter read -> GUI frame pump (%.0f Hz, %zu batches in %d s): p50 %.1f ms, p99 %.1f ms, "
                "max %.1f ms (target p99 <= 50 ms)\n",
        pump.frameRate(), latency.ms.size(), seconds, latency.at(0.5), latency.at(0.99), latency.max());
}
#endif

pid_t findAgent()
{
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
        const auto name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::error_code linkEc;
        if (std::filesystem::read_symlink(e.path() / "exe", linkEc).string() != RDTSCOPE_AGENT) continue;
        std::ifstream f(e.path() / "cmdline");
        std::string cmdline((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        if (cmdline.find("--stdio") != std::string::npos) return static_cast<pid_t>(std::atol(name.c_str()));
    }
    return -1;
}
}

int main(int argc, char** argv)
{
#if RDTSCOPE_BENCH_GUI_PUMP
    QCoreApplication app(argc, argv);
#else
    (void)argc;
    (void)argv;
#endif
    const std::string sandbox = std::string(RDTSCOPE_TEST_DATA) + "/../agent/sshd-sandbox";
    char dirTempl[] = "/tmp/rdtscope-bench-sshd-XXXXXX";
    const std::string dir = ::mkdtemp(dirTempl);
    const std::string started
        = shell("'" + sandbox + "' start '" + dir + "' '" + std::string(RDTSCOPE_AGENT_DIR) + "' 2>&1");
    const auto portAt = started.find("PORT=");
    const auto sshAt = started.find("export RDTSCOPE_SSH_COMMAND='");
    if (portAt == std::string::npos || sshAt == std::string::npos) {
        std::printf("bench_agent_ssh: not measured: the sshd sandbox did not start:\n%s", started.c_str());
        std::filesystem::remove_all(dir);
        return 0;
    }
    const int port = std::atoi(started.c_str() + portAt + 5);
    const auto sshStart = sshAt + std::string("export RDTSCOPE_SSH_COMMAND='").size();
    ::setenv("RDTSCOPE_SSH_COMMAND", started.substr(sshStart, started.find('\'', sshStart) - sshStart).c_str(), 1);

    int rc = 0;
    {
        Tree tree;
        engine::ServiceOptions o;
        o.rdt.spec = "resctrl:" + tree.root;
        auto engine = remote::connectEngine("ssh://root@127.0.0.1:" + std::to_string(port), o, "bench_agent_ssh");
        if (!engine) {
            std::printf("bench_agent_ssh: cannot connect: %s\n", engine.error().toString().c_str());
            rc = 1;
        } else {
            auto& e = **engine;
            std::atomic<bool> stop { false };
            std::thread traffic([&] {
                std::mt19937_64 rng(11);
                auto next = std::chrono::steady_clock::now();
                while (!stop) {
                    next += std::chrono::milliseconds(100);
                    std::this_thread::sleep_until(next);
                    tree.tick(rng);
                }
            });
            (void)e.setSamplingInterval(100'000'000);
            const pid_t agent = findAgent();
            std::vector<double> latencyMs;
            std::size_t samples = 0;
            const auto bytes0 = e.client().stats().bytesIn;
            const double cpu0 = agent > 0 ? cpuSecondsOf(agent) : -1;
            const auto t0 = monotonicNs();
            if (auto r = e.startSampling(); !r.ok) std::printf("startSampling: %s\n", r.toString().c_str());
            while (monotonicNs() - t0 < static_cast<std::uint64_t>(kSeconds) * 1'000'000'000) {
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                for (auto& ev : e.drainEvents()) {
                    if (const auto* b = std::get_if<RdtSampleBatch>(&ev)) {
                        latencyMs.push_back(static_cast<double>(monotonicNs() - b->timeNs) * 1e-6);
                        samples += b->samples.size();
                    } else if (const auto* err = std::get_if<engine::EngineError>(&ev)) {
                        std::printf("error: %s (%s)\n", err->reason.c_str(), err->where.c_str());
                    }
                }
            }
            const double secs = static_cast<double>(monotonicNs() - t0) * 1e-9;
            const double cpu1 = agent > 0 ? cpuSecondsOf(agent) : -1;
            const auto bytes1 = e.client().stats().bytesIn;
            e.stopSampling();
            std::sort(latencyMs.begin(), latencyMs.end());
            auto pct = [&](double p) {
                return latencyMs.empty() ? 0.0
                                         : latencyMs[std::min(latencyMs.size() - 1,
                                             static_cast<std::size_t>(p * static_cast<double>(latencyMs.size())))];
            };
            std::printf("\n%d groups x %d domains at 10 Hz, rdtscope-agent --stdio behind sshd on 127.0.0.1, %.0f s:\n",
                kGroups, kDomains, secs);
            std::printf("  batches: %zu (%zu samples), dropped/coalesced: %llu\n", latencyMs.size(), samples,
                static_cast<unsigned long long>(e.droppedEvents()));
            std::printf("  wire (protocol bytes from the agent): %.1f kB/s (target <= 50 kB/s)\n",
                static_cast<double>(bytes1 - bytes0) / secs / 1000);
            if (agent > 0)
                std::printf("  agent CPU: %.2f %% of a core (target <= 2 %%)\n", 100 * (cpu1 - cpu0) / secs);
            else
                std::printf("  agent CPU: not measured (the agent process was not found)\n");
            std::printf("  latency counter read -> drained here: p50 %.1f ms, p99 %.1f ms, max %.1f ms (target p99 <= "
                        "50 ms)\n",
                pct(0.5), pct(0.99), latencyMs.empty() ? 0.0 : latencyMs.back());
#if RDTSCOPE_BENCH_GUI_PUMP
            measureGuiFramePump("ssh://root@127.0.0.1:" + std::to_string(port), tree.root, kSeconds);
#else
            std::printf("  latency to the GUI's frame pump: not measured (built without the GUI)\n");
#endif
            stop = true;
            traffic.join();
        }
    }
    shell("'" + sandbox + "' stop '" + dir + "' 2>&1");
    std::filesystem::remove_all(dir);
    return rc;
}
