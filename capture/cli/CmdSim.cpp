// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli sim: the simulated machine on its own. Lists presets and scenarios, describes the machine a scenario
// builds (from a preset or any CPUID dump with --sim-cpuid), and runs a scenario printing, per simulated second,
// each resctrl group's LLC occupancy and memory bandwidth as the emulated kernel reports them, plus the lesson's
// notes and rejected commands. With --mount or --namespace it serves the emulated kernel (SimResctrlFs) as a real
// file system through FUSE (capture/simfs), so any tool can use the simulated machine (docs/RESCTRL.md
// "The simulated machine as a mount"). Everything printed is simulated and says so.
#include "Commands.h"
#include "Options.h"
#include "core/Time.h"
#include "engine/SimulatedCatalogue.h"
#include "rdt/GroupNames.h"
#include "sim/Scenario.h"
#include "sim/SimRunner.h"
#include "sim/Simulation.h"
#include "simfs/FsFuseMount.h"
#include "simfs/ResctrlNamespace.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace rdt::cli {

namespace {

std::vector<std::string> groupsOf(sim::SimResctrlFs& fs)
{
    std::vector<std::string> out { "" };
    auto addMon = [&](const std::string& prefix) {
        auto mons = fs.list(prefix + "mon_groups");
        if (mons)
            for (const auto& m : *mons)
                out.push_back(prefix + "mon_groups/" + m);
    };
    addMon("");
    auto root = fs.list("");
    if (root)
        for (const auto& e : *root)
            if (e != "info" && e != "mon_data" && e != "mon_groups" && fs.isDirectory(e)) {
                out.push_back(e);
                addMon(e + "/");
            }
    return out;
}

std::uint64_t readNumber(sim::SimResctrlFs& fs, const std::string& path, bool& ok)
{
    auto r = fs.read(path);
    ok = r && !r->empty() && r->front() >= '0' && r->front() <= '9';
    return ok ? std::strtoull(r->c_str(), nullptr, 10) : 0;
}

struct SimOptions {
    bool list = false, describe = false, realtime = false, inNamespace = false;
    std::string scenario, simCpuid, preset, mountDir;
    std::vector<std::string> command; ///< --namespace: the command to run inside
    std::optional<double> cores, sampling, seconds;
    double speed = 1;
};

/// Every thread id of the host (/proc/PID/task/TID), as the kernel's default group lists them.
std::vector<unsigned> hostThreads()
{
    std::vector<unsigned> out;
    std::error_code ec;
    for (const auto& proc : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = proc.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::error_code taskEc;
        for (const auto& task : std::filesystem::directory_iterator(proc.path() / "task", taskEc)) {
            const std::string tid = task.path().filename().string();
            if (!tid.empty() && tid.size() < 10 && tid.find_first_not_of("0123456789") == std::string::npos)
                out.push_back(static_cast<unsigned>(std::stoul(tid)));
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// The machine a mount serves: as many CPUs as the host (so the CPU masks host tools write are valid), host PIDs
/// accepted in tasks, and, unless a scenario is named, two simulated threads in the default group so mon_data
/// moves (a cache-friendly service on CPU 0, a streamer on the last CPU).
Result<std::unique_ptr<sim::Simulation>> servedMachine(const SimOptions& o)
{
    const long online = ::sysconf(_SC_NPROCESSORS_CONF);
    const unsigned cpus = online > 0 ? unsigned(online) : 1;
    Result<sim::Scenario> scenario = makeError("no scenario");
    if (!o.scenario.empty()) {
        scenario = sim::loadScenario(o.scenario);
    } else {
        std::string text = "name mount\ntitle The simulated machine served to host tools\nmachine preset="
            + std::string(sim::defaultPresetId()) + " cores=" + std::to_string(cpus) + " sampling=64\n"
            + "thread service cpu=0 pattern=random ws=4M compute=200\n"
            + "thread streamer cpu=" + std::to_string(cpus - 1) + " pattern=stream ws=256M compute=50\n";
        scenario = sim::parseScenario(text, "mount");
    }
    if (!scenario) return scenario.error();
    sim::SimulationOptions opts;
    opts.cpuidFile = o.simCpuid;
    opts.preset = o.preset;
    opts.cores = int(cpus) / int(std::max(1u, scenario->sockets * scenario->threadsPerCore));
    if (opts.cores < 1 || unsigned(opts.cores) * scenario->sockets * scenario->threadsPerCore != cpus)
        return errnoError(EINVAL,
            "the scenario's " + std::to_string(scenario->sockets) + " socket(s) x "
                + std::to_string(scenario->threadsPerCore) + " thread(s) per core do not divide the host's "
                + std::to_string(cpus) + " CPUs",
            "the mounted machine has as many CPUs as the host; pick a one-socket scenario without SMT");
    opts.hostTaskExists = [](unsigned pid) { return ::kill(pid_t(pid), 0) == 0 || errno == EPERM; };
    opts.listHostTasks = hostThreads;
    auto created = sim::Simulation::create(*scenario, opts);
    if (!created)
        return errnoError(created.error().code, created.error().message,
            created.error().advice.empty() ? "the mounted machine has " + std::to_string(cpus)
                    + " CPUs (the host's): the scenario's threads must run on CPUs below that"
                                           : created.error().advice);
    return created;
}

/// The /proc/cpuinfo flags the kernel shows for the simulated processor's RDT features (the names of
/// arch/x86/include/asm/cpufeatures.h), added to the host's flags lines inside the namespace: tools such as pqos
/// look for them before they use resctrl's monitoring.
std::string cpuinfoWithRdtFlags(const sim::SimFeatures& f)
{
    std::string flags;
    auto add = [&](bool on, const char* name) {
        if (on) flags += std::string(" ") + name;
    };
    add(f.allocation(), "rdt_a");
    add(f.l3Cat.present, "cat_l3");
    add(f.l3Cat.cdp, "cdp_l3");
    add(f.l2Cat.present, "cat_l2");
    add(f.l2Cat.cdp, "cdp_l2");
    add(f.mba.present, "mba");
    add(f.mon.present, "cqm");
    add(f.mon.present, "cqm_llc");
    add(f.mon.occupancy, "cqm_occup_llc");
    add(f.mon.mbmTotal, "cqm_mbm_total");
    add(f.mon.mbmLocal, "cqm_mbm_local");
    std::ifstream in("/proc/cpuinfo");
    std::string line, out;
    while (std::getline(in, line))
        out += line + (line.rfind("flags", 0) == 0 ? flags : "") + "\n";
    return out;
}

/// /sys/devices/system/cpu/cpuN as the kernel shows the simulated machine's topology (node, package, core, and the
/// cache/indexK directories of Documentation/ABI/testing/sysfs-devices-system-cpu): tools map CPUs to resctrl's
/// L3 domains through cache/index3/id, which is the domain number of mon_L3_XX.
std::vector<simfs::TreeOverlay> cpuTrees(const sim::SimMachine& m)
{
    const sim::SimTopology& t = m.options().topology;
    const sim::SimFeatures& f = m.features();
    std::vector<simfs::TreeOverlay> out;
    for (unsigned cpu = 0; cpu < m.cpuCount(); ++cpu) {
        simfs::TreeOverlay tree;
        tree.target = "/sys/devices/system/cpu/cpu" + std::to_string(cpu);
        auto add = [&](const std::string& path, const std::string& content) { tree.files.emplace_back(path, content); };
        add("online", "1\n");
        add("node" + std::to_string(t.socketOf(cpu)) + "/", "");
        add("topology/physical_package_id", std::to_string(t.socketOf(cpu)) + "\n");
        add("topology/core_id", std::to_string(t.coreOf(cpu) % t.coresPerSocket) + "\n");
        struct Cache {
            const sim::CacheGeometry& g;
            unsigned level;
            const char* type;
            unsigned id;
        };
        const Cache caches[] = { { f.l1d, 1, "Data", t.coreOf(cpu) }, { f.l1i, 1, "Instruction", t.coreOf(cpu) },
            { f.l2, 2, "Unified", t.coreOf(cpu) }, { f.l3, 3, "Unified", t.l3Of(cpu) } };
        unsigned index = 0;
        for (const auto& c : caches) {
            if (!c.g.present()) continue;
            const std::string dir = "cache/index" + std::to_string(index++) + "/";
            add(dir + "level", std::to_string(c.level) + "\n");
            add(dir + "id", std::to_string(c.id) + "\n");
            add(dir + "type", std::string(c.type) + "\n");
            add(dir + "size", std::to_string(c.g.sizeBytes() / 1024) + "K\n");
            add(dir + "ways_of_associativity", std::to_string(c.g.ways) + "\n");
            add(dir + "number_of_sets", std::to_string(c.g.sets) + "\n");
            add(dir + "coherency_line_size", std::to_string(c.g.lineSize) + "\n");
        }
        out.push_back(std::move(tree));
    }
    return out;
}

/// The simulated processor's CPUID as the preload shim reads it (capture/cpuidshim): "leaf.subleaf=a,b,c,d;".
std::string cpuidTable(const sim::SimCpuid& cpuid)
{
    std::string out;
    char buf[96];
    for (const auto& [key, r] : cpuid.leaves()) {
        std::snprintf(buf, sizeof buf, "%x.%x=%x,%x,%x,%x;", key.first, key.second, r.eax, r.ebx, r.ecx, r.edx);
        out += buf;
    }
    return out;
}

/// The shim library: beside this program in the build tree (capture/cli -> capture/cpuidshim), then the installed
/// one; empty when neither exists. Found from /proc/self/exe, so no build path is compiled into the program.
std::string cpuidShimPath()
{
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
    const std::string build = ec ? std::string() : (self / "../cpuidshim/librdtscope-cpuidshim.so").string();
    for (const std::string& p : { build, std::string(RDTSCOPE_CPUID_SHIM_INSTALLED) })
        if (!p.empty() && ::access(p.c_str(), R_OK) == 0) return p;
    return {};
}

/// A simulated machine served through FUSE: destroyed in order (unmount, stop the clock, then the machine).
struct Served {
    std::shared_ptr<sim::Simulation> simulation;
    std::unique_ptr<sim::SimRunner> runner;
    std::unique_ptr<simfs::FsFuseMount> mount;
    ~Served()
    {
        mount.reset();
        runner.reset();
    }
};

/// Mounts the simulation's resctrl on `dir` and starts its real-time clock.
Result<std::unique_ptr<Served>> serve(std::shared_ptr<sim::Simulation> simulation, const std::string& dir)
{
    auto served = std::make_unique<Served>();
    served->simulation = std::move(simulation);
    // The Fs handed to FUSE shares the simulation's lifetime (an aliasing pointer to its resctrl).
    std::shared_ptr<Fs> fs(served->simulation, &served->simulation->resctrl());
    auto mounted = simfs::FsFuseMount::mount(fs, dir);
    if (!mounted) return mounted.error();
    served->mount = std::move(*mounted);
    served->runner = std::make_unique<sim::SimRunner>(served->simulation->machine(), 1.0);
    return served;
}

int failServing(const Error& e)
{
    std::fprintf(stderr, "rdtscope-cli sim: %s\n", e.toString().c_str());
    return e.code == ENODEV || e.code == EPERM ? ExitUnavailable : ExitFailure;
}

void describeServed(Served& s, const std::string& where)
{
    for (const auto& line : s.simulation->describe())
        std::fprintf(stderr, "# %s\n", line.c_str());
    std::fprintf(stderr, "# simulated resctrl mounted at %s (%u CPUs, as the host; runs in real time)\n", where.c_str(),
        s.simulation->machine().cpuCount());
}

int runMount(const SimOptions& o)
{
    struct stat st { };
    if (::stat(o.mountDir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        std::fprintf(stderr, "rdtscope-cli sim: --mount %s: not a directory (create it first: mkdir -p %s)\n",
            o.mountDir.c_str(), o.mountDir.c_str());
        return ExitUsage;
    }
    if (auto ok = simfs::checkFuseAvailable(); !ok) return failServing(ok.error());
    auto sim = servedMachine(o);
    if (!sim) return failServing(sim.error());
    auto served = serve(std::move(*sim), o.mountDir);
    if (!served) return failServing(served.error());
    Served& s = **served;
    describeServed(s, o.mountDir);
    std::fprintf(stderr, "# serving until SIGINT or SIGTERM (Ctrl-C), then unmounting\n");
    auto r = s.mount->serveUntilSignal();
    std::fprintf(stderr, "# %llu requests served; real-time runner: %.1f%% of one core%s; unmounted %s\n",
        static_cast<unsigned long long>(s.mount->requests()), s.runner->load() * 100,
        s.runner->lagging() ? ", LAGGING behind real time" : "", o.mountDir.c_str());
    if (!r) return failServing(r.error());
    return ExitOk;
}

/// The command `sim --namespace` runs, for the SIGTERM handler that passes the signal on.
volatile pid_t g_namespaceChild = 0;

int runNamespace(const SimOptions& o)
{
    if (o.command.empty()) {
        std::fprintf(stderr, "rdtscope-cli sim: --namespace needs a command after --, e.g. -- pqos -I -s\n");
        return ExitUsage;
    }
    if (auto s = simfs::checkFuseAvailable(); !s) return failServing(s.error());
    auto fsList = simfs::filesystemsWithResctrl();
    if (!fsList) return failServing(fsList.error());
    auto sim = servedMachine(o);
    if (!sim) return failServing(sim.error());
    const std::string cpuinfo = cpuinfoWithRdtFlags((*sim)->machine().features());
    if (auto s = simfs::ResctrlNamespace::enter(
            { { "/proc/filesystems", *fsList }, { "/proc/cpuinfo", cpuinfo } }, cpuTrees((*sim)->machine()));
        !s)
        return failServing(s.error());
    // Programs that read CPUID through a cpuid(leaf, subleaf) helper (pqos) see the simulated processor.
    const std::string shim = cpuidShimPath();
    if (shim.empty()) {
        std::fprintf(stderr, "# note: the CPUID shim is not installed: commands that read CPUID see the host's\n");
    } else {
        const char* preload = std::getenv("LD_PRELOAD");
        ::setenv("LD_PRELOAD", (shim + (preload && *preload ? std::string(":") + preload : "")).c_str(), 1);
        ::setenv("RDTSCOPE_SIM_CPUID", cpuidTable((*sim)->machine().cpuid()).c_str(), 1);
    }
    auto served = serve(std::move(*sim), simfs::ResctrlNamespace::kMountpoint);
    if (!served) return failServing(served.error());
    Served& s = **served;
    describeServed(s, simfs::ResctrlNamespace::kMountpoint);
    s.mount->start();
    std::vector<char*> argv;
    for (const auto& a : o.command)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    // The terminal's Ctrl-C goes to the command; this process serves until the command has exited.
    struct sigaction ignore { };
    ignore.sa_handler = SIG_IGN;
    struct sigaction oldInt {
    }, oldQuit {};
    sigaction(SIGINT, &ignore, &oldInt);
    sigaction(SIGQUIT, &ignore, &oldQuit);
    const pid_t child = ::fork();
    if (child == 0) {
        sigaction(SIGINT, &oldInt, nullptr);
        sigaction(SIGQUIT, &oldQuit, nullptr);
        ::execvp(argv[0], argv.data());
        const char* msg = "rdtscope-cli sim: cannot run the command (not found on PATH?)\n";
        (void)!::write(2, msg, std::strlen(msg));
        ::_exit(127);
    }
    if (child < 0) return failServing(errnoError(errno, "cannot start " + o.command[0]));
    // SIGTERM to this process goes on to the command, which ends first; the mount stays until it has.
    g_namespaceChild = child;
    struct sigaction forward { };
    forward.sa_handler = [](int sig) { ::kill(g_namespaceChild, sig); };
    struct sigaction oldTerm { };
    sigaction(SIGTERM, &forward, &oldTerm);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) { }
    sigaction(SIGTERM, &oldTerm, nullptr);
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGQUIT, &oldQuit, nullptr);
    s.mount->stop();
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : ExitFailure;
}

int runSim(const SimOptions& o)
{
    if (!o.mountDir.empty() && o.inNamespace) {
        std::fprintf(stderr, "rdtscope-cli sim: --mount and --namespace exclude each other\n");
        return ExitUsage;
    }
    if (!o.command.empty() && !o.inNamespace) {
        std::fprintf(stderr, "rdtscope-cli sim: a command (after --) runs only with --namespace\n");
        return ExitUsage;
    }
    if (!o.mountDir.empty()) return runMount(o);
    if (o.inNamespace) return runNamespace(o);
    if (o.list) {
        std::printf("presets (real CPUs' CPUID, simulated):\n");
        for (const auto& p : engine::simulatedPresets())
            std::printf("  %-12s %s  [%s]%s\n", p.id.c_str(), p.title.c_str(), p.origin.c_str(),
                p.isDefault ? "  (default)" : "");
        std::printf("scenarios (built in; any file in the same format works with --scenario FILE):\n");
        for (const auto& s : engine::simulatedScenarios())
            std::printf("  %-16s %s\n", s.id.c_str(), s.title.c_str());
        return ExitOk;
    }
    auto scenario = sim::loadScenario(o.scenario.empty() ? sim::defaultScenarioName() : o.scenario);
    if (!scenario) {
        std::fprintf(stderr, "rdtscope-cli sim: %s\n", scenario.error().toString().c_str());
        return ExitFailure;
    }
    sim::SimulationOptions opts;
    opts.cpuidFile = o.simCpuid;
    opts.preset = o.preset;
    opts.cores = o.cores ? int(*o.cores) : -1;
    opts.sampling = o.sampling ? int(*o.sampling) : -1;
    const double seconds = o.seconds.value_or(scenario->durationNs ? double(scenario->durationNs) * 1e-9 : 10.0);
    auto created = sim::Simulation::create(*scenario, opts);
    if (!created) {
        std::fprintf(stderr, "rdtscope-cli sim: %s\n", created.error().toString().c_str());
        return ExitFailure;
    }
    sim::Simulation& s = **created;
    for (const auto& line : s.describe())
        std::printf("# %s\n", line.c_str());
    if (o.describe) {
        std::printf("# groups:");
        for (const auto& g : groupsOf(s.resctrl()))
            std::printf(" %s", displayGroup(g).c_str());
        std::printf("\n");
        for (const auto& t : s.machine().threads())
            std::printf("# thread %d %-10s cpu %u clos %u rmid %u %s ws %llu\n", t.tid, t.name.c_str(), t.cpu, t.clos,
                t.rmid, sim::patternName(t.spec.pattern), static_cast<unsigned long long>(t.spec.workingSet));
        return ExitOk;
    }
    std::printf("%8s  %-28s %12s %12s %12s\n", "time[s]", "group (simulated)", "llc_occ[MiB]", "mbm_tot[MB/s]",
        "mbm_loc[MB/s]");
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> prev;
    std::size_t seenEvents = 0;
    const auto total = static_cast<std::uint64_t>(seconds * 1e9);
    std::unique_ptr<sim::SimRunner> runner;
    if (o.realtime) runner = std::make_unique<sim::SimRunner>(s.machine(), o.speed);
    const std::uint64_t start = s.machine().nowNs();
    for (std::uint64_t t = 1'000'000'000; t <= total; t += 1'000'000'000) {
        if (runner) {
            while (s.machine().nowNs() < start + t)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        } else {
            s.advance(start + t - s.machine().nowNs());
        }
        for (const auto& e : s.events(seenEvents))
            std::printf("%8.3f  %s %s\n", double(e.timeNs) * 1e-9, e.note ? "note:" : (e.ok ? "did: " : "FAILED:"),
                e.text.c_str());
        seenEvents = s.events().size();
        for (const auto& g : groupsOf(s.resctrl())) {
            const std::string base = (g.empty() ? "" : g + "/") + "mon_data/mon_L3_00/";
            bool okOcc = false, okTot = false, okLoc = false;
            const auto occ = readNumber(s.resctrl(), base + "llc_occupancy", okOcc);
            const auto tot = readNumber(s.resctrl(), base + "mbm_total_bytes", okTot);
            const auto loc = readNumber(s.resctrl(), base + "mbm_local_bytes", okLoc);
            auto& p = prev[g];
            const bool first = p.first == 0 && p.second == 0;
            std::printf("%8.1f  %-28s %12.2f %12s %12s\n", double(t) * 1e-9, displayGroup(g).c_str(),
                okOcc ? double(occ) / (1 << 20) : -1.0,
                okTot && !first ? std::to_string((tot - p.first) / 1'000'000).c_str() : "-",
                okLoc && !first ? std::to_string((loc - p.second) / 1'000'000).c_str() : "-");
            p = { tot, loc };
        }
    }
    if (runner)
        std::printf("# real-time runner: %.1f%% of one core, %s\n", runner->load() * 100,
            runner->lagging() ? "LAGGING behind real time" : "keeping up");
    return ExitOk;
}

} // namespace

CommandRun defineSim(CLI::App& cmd)
{
    cmd.footer("Everything printed is simulated and says so.");
    auto o = std::make_shared<SimOptions>();
    cmd.add_flag("--list", o->list, "list the CPU presets and the built-in scenarios");
    cmd.add_option("--scenario", o->scenario, "a built-in scenario or a scenario file (default noisy-neighbour)")
        ->type_name("NAME|FILE");
    auto* machine = cmd.add_option_group("machine");
    machine->add_option("--sim-cpuid", o->simCpuid, "simulate the CPU of this CPUID dump")->type_name("FILE");
    machine->add_option("--preset", o->preset, "simulate this preset CPU (see --list)")->type_name("ID");
    machine->require_option(0, 1);
    addNumber(cmd, "--cores", o->cores, { 1, 4096, true }, "N", "cores per socket (default: the scenario's)");
    addNumber(
        cmd, "--sampling", o->sampling, { 1, 1e6, true }, "S", "cache set sampling factor (default: the scenario's)");
    addNumber(cmd, "--seconds", o->seconds, { 0.001, 1e7 }, "N", "simulated seconds to run (default: the scenario's)");
    cmd.add_flag("--describe", o->describe, "print the machine, its groups and threads, and exit");
    cmd.add_flag("--realtime", o->realtime, "run in real time on a runner thread");
    addNumber(cmd, "--speed", o->speed, { 0.01, 1000 }, "X", "times real time, with --realtime (default 1)");
    cmd.add_option("--mount", o->mountDir,
           "serve the simulated resctrl at DIR through FUSE (root) until SIGINT/SIGTERM; the machine has the host's "
           "CPU count and takes host PIDs")
        ->type_name("DIR");
    cmd.add_flag("--namespace", o->inNamespace,
        "run the command after -- in a private mount namespace (root) where the simulated machine is mounted at "
        "/sys/fs/resctrl and /proc/filesystems lists resctrl");
    cmd.add_option("command", o->command, "with --namespace: the command and its arguments (after --)")
        ->type_name("CMD [ARGS...]");
    return [o] { return runSim(*o); };
}

} // namespace rdt::cli
