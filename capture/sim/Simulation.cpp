// SPDX-License-Identifier: GPL-3.0-or-later
#include "Simulation.h"

#include "ResctrlGroupSnapshot.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace rdt::sim {
namespace {

std::string formatTime(std::uint64_t ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f s", double(ns) * 1e-9);
    return buf;
}

bool kv(const std::string& w, std::string& k, std::string& v)
{
    auto eq = w.find('=');
    if (eq == std::string::npos) return false;
    k = w.substr(0, eq);
    v = w.substr(eq + 1);
    return true;
}

std::string groupPath(const std::string& g)
{
    return g == "/" || g == "." ? std::string {} : g;
}

} // namespace

std::string expandWriteText(const std::string& text)
{
    std::string out;
    bool noNewline = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) {
            if (text[i + 1] == 'n') {
                out.push_back('\n');
                ++i;
                continue;
            }
            if (text[i + 1] == 'c' && i + 2 == text.size()) {
                noNewline = true;
                break;
            }
        }
        out.push_back(text[i]);
    }
    if (!noNewline) out.push_back('\n');
    return out;
}

Result<std::unique_ptr<Simulation>> Simulation::create(const Scenario& scenario, const SimulationOptions& options)
{
    std::unique_ptr<Simulation> sim(new Simulation());
    sim->m_scenario = scenario;
    const std::string cpuidFile = !options.cpuidFile.empty() ? options.cpuidFile : scenario.cpuidFile;
    const std::string preset = !options.preset.empty() ? options.preset : scenario.preset;
    auto cpuid = cpuidFile.empty() ? presetCpuid(preset) : loadSimCpuid(cpuidFile);
    if (!cpuid) return cpuid.error();
    for (const auto& [k, v] : scenario.overrides)
        if (auto s = applyCpuidOverride(*cpuid, k, v); !s)
            return errnoError(EINVAL, scenario.name + ": " + s.error().message, s.error().advice);
    SimOptions o;
    o.topology.sockets = scenario.sockets;
    o.topology.coresPerSocket = options.cores > 0 ? unsigned(options.cores) : scenario.cores;
    if (const PresetInfo* info = cpuidFile.empty() ? presetInfo(preset) : nullptr) {
        o.topology.coresPerL3 = info->coresPerL3;
        o.topology.sncNodes = std::max(1u, info->sncNodes);
        o.pkgTelemetry = info->pkgTelemetry;
        o.dialect = static_cast<ResctrlDialect>(info->dialect);
        // A preset that replaces the scenario's brings its own size (e.g. epyc-genoa: 4 CCX of 8 cores), so that
        // its L3 domains exist; the scenario's CPU numbers stay valid as long as it names fewer cores.
        if (preset != scenario.preset && options.cores <= 0 && info->coresPerSocket > o.topology.coresPerSocket)
            o.topology.coresPerSocket = info->coresPerSocket;
    }
    o.topology.threadsPerCore = scenario.threadsPerCore;
    o.setSampling = options.sampling > 0 ? std::uint32_t(options.sampling) : scenario.sampling;
    o.maxTimeScale = options.maxTimeScale;
    o.tickNs = scenario.tickNs;
    auto machine = SimMachine::create(*cpuid, o);
    if (!machine) return machine.error();
    sim->m_machine = std::move(*machine);
    ResctrlMountOptions mo;
    mo.cdp = scenario.cdp;
    mo.cdpl2 = scenario.cdpl2;
    mo.minCbmBits = scenario.minCbmBits;
    mo.hostTaskExists = options.hostTaskExists;
    mo.listHostTasks = options.listHostTasks;
    auto fs = SimResctrlFs::mount(*sim->m_machine, mo);
    if (!fs) return fs.error();
    sim->m_fs = std::move(*fs);
    sim->m_msr = std::make_unique<SimMsrSpace>(*sim->m_machine);
    std::lock_guard lock(sim->m_machine->mutex());
    while (sim->m_nextStep < scenario.steps.size() && scenario.steps[sim->m_nextStep].atNs == 0) {
        const ScenarioStep& st = scenario.steps[sim->m_nextStep++];
        if (auto s = sim->runStep(st); !s)
            return errnoError(s.error().code ? s.error().code : EINVAL,
                scenario.name + ":" + std::to_string(st.line) + ": " + st.verb + " failed: " + s.error().message,
                s.error().advice);
    }
    Simulation* self = sim.get();
    sim->m_listener = sim->m_machine->addTickListener([self](std::uint64_t now) { self->onTick(now); });
    return sim;
}

Simulation::~Simulation()
{
    if (m_machine) m_machine->removeTickListener(m_listener);
    m_msr.reset();
    m_fs.reset();
}

void Simulation::onTick(std::uint64_t nowNs)
{
    if (m_holdSteps) return;
    while (m_nextStep < m_scenario.steps.size() && m_scenario.steps[m_nextStep].atNs <= nowNs) {
        const ScenarioStep& st = m_scenario.steps[m_nextStep++];
        auto s = runStep(st);
        if (!s) m_events.push_back({ nowNs, st.verb + " failed: " + s.error().message, false, false });
    }
}

std::vector<ScenarioEvent> Simulation::events(std::size_t from) const
{
    std::lock_guard lock(m_machine->mutex());
    if (from >= m_events.size()) return {};
    return { m_events.begin() + long(from), m_events.end() };
}

bool Simulation::finished() const
{
    return m_scenario.durationNs > 0 && m_machine->nowNs() >= m_scenario.durationNs;
}

std::vector<std::string> Simulation::describe() const
{
    std::vector<std::string> out;
    out.push_back("simulated machine: " + m_machine->cpuid().name + " (" + m_machine->cpuid().source + ")");
    const SimOptions& o = m_machine->options();
    out.push_back(std::to_string(o.topology.sockets) + " socket(s) x " + std::to_string(o.topology.coresPerSocket)
        + " cores x " + std::to_string(o.topology.threadsPerCore) + " threads, set sampling 1/"
        + std::to_string(o.setSampling)
        + (o.maxTimeScale > 1 ? ", time sampling up to 1/" + std::to_string(o.maxTimeScale) + " once steady" : ""));
    if (o.topology.l3PerSocket() > 1)
        out.push_back(std::to_string(o.topology.l3Count()) + " L3 domains: one per CCX of "
            + std::to_string(o.topology.coresPerL3) + " cores");
    if (o.topology.sncNodes > 1)
        out.push_back("Sub-NUMA Clustering: " + std::to_string(o.topology.sncNodes) + " nodes per L3 domain");
    if (o.pkgTelemetry)
        out.push_back("PERF_PKG_MON telemetry per group and package (synthetic energy model, simulated)");
    for (const auto& n : m_machine->cpuid().notes)
        out.push_back(n);
    out.push_back("scenario: " + m_scenario.name + (m_scenario.title.empty() ? "" : " - " + m_scenario.title));
    return out;
}

int Simulation::tidOf(const std::string& name) const
{
    if (auto t = m_machine->findThread(name)) return *t;
    char* end = nullptr;
    long v = std::strtol(name.c_str(), &end, 10);
    return (*end == '\0' && m_machine->thread(int(v))) ? int(v) : -1;
}

Status Simulation::runStep(const ScenarioStep& st)
{
    const std::uint64_t now = m_machine->nowNs();
    auto record = [&](const std::string& text) { m_events.push_back({ now, text, true, false }); };
    if (st.verb == "note") {
        m_events.push_back({ now, st.args.empty() ? std::string {} : st.args[0], true, true });
        return {};
    }
    if (st.verb == "mkdir" || st.verb == "rmdir") {
        auto s = st.verb == "mkdir" ? m_fs->mkdir(st.args[0]) : m_fs->rmdir(st.args[0]);
        if (s) record(st.verb + " " + st.args[0]);
        return s;
    }
    if (st.verb == "write") {
        std::string data = expandWriteText(st.args[1]);
        auto s = m_fs->write(st.args[0], data);
        if (!s) {
            auto status = m_fs->read("info/last_cmd_status");
            std::string text = status ? *status : std::string {};
            while (!text.empty() && text.back() == '\n')
                text.pop_back();
            return errnoError(s.error().code,
                "write " + st.args[0] + ": " + s.error().message
                    + (text.empty() || text == "ok" ? std::string {} : " (last_cmd_status: " + text + ")"));
        }
        record("write " + st.args[0] + " " + st.args[1]);
        return {};
    }
    if (st.verb == "thread") {
        WorkloadSpec spec;
        unsigned cpu = 0;
        std::string group;
        for (std::size_t i = 1; i < st.args.size(); ++i) {
            std::string k, v;
            kv(st.args[i], k, v);
            if (k == "cpu")
                cpu = unsigned(std::strtoul(v.c_str(), nullptr, 10));
            else if (k == "group")
                group = groupPath(v);
            else if (auto s = applyWorkloadSetting(spec, k, v); !s)
                return s;
        }
        auto tid = m_machine->addThread(st.args[0], cpu, spec);
        if (!tid) return tid.error();
        if (!group.empty() || (st.args.size() > 1 && st.args[1].rfind("group=", 0) == 0))
            if (auto s = m_fs->write((group.empty() ? "" : group + "/") + "tasks", std::to_string(*tid) + "\n"); !s)
                return s;
        record("thread " + st.args[0] + " (pid " + std::to_string(*tid) + ") on CPU " + std::to_string(cpu));
        return {};
    }
    if (st.verb == "set" || st.verb == "move" || st.verb == "assign") {
        if (st.args.empty()) return errnoError(EINVAL, st.verb + " needs a thread name");
        int tid = tidOf(st.args[0]);
        if (tid < 0) return errnoError(ESRCH, "no simulated thread '" + st.args[0] + "'");
        if (st.verb == "assign") {
            if (st.args.size() != 2) return errnoError(EINVAL, "assign takes a thread and a group path");
            std::string g = groupPath(st.args[1]);
            auto s = m_fs->write((g.empty() ? "" : g + "/") + "tasks", std::to_string(tid) + "\n");
            if (s) record("assign " + st.args[0] + " to " + (g.empty() ? "the default group" : g));
            return s;
        }
        WorkloadSpec spec = m_machine->thread(tid)->spec;
        for (std::size_t i = 1; i < st.args.size(); ++i) {
            std::string k, v;
            if (!kv(st.args[i], k, v)) return errnoError(EINVAL, "expected key=value, got '" + st.args[i] + "'");
            if (k == "cpu") {
                if (auto s = m_machine->setThreadCpu(tid, unsigned(std::strtoul(v.c_str(), nullptr, 10))); !s) return s;
            } else if (auto s = applyWorkloadSetting(spec, k, v); !s) {
                return s;
            }
        }
        if (st.verb == "set")
            if (auto s = m_machine->setWorkload(tid, spec); !s) return s;
        record(st.verb + " " + st.args[0]);
        return {};
    }
    if (st.verb == "msr") {
        // msr cpu=N ADDRESS VALUE: a raw WRMSR through the SDM rules (a #GP is reported, not fatal, after 0 s).
        if (st.args.size() != 3 || st.args[0].rfind("cpu=", 0) != 0)
            return errnoError(EINVAL, "usage: msr cpu=N ADDRESS VALUE");
        unsigned cpu = unsigned(std::strtoul(st.args[0].c_str() + 4, nullptr, 10));
        auto addr = static_cast<std::uint32_t>(std::strtoull(st.args[1].c_str(), nullptr, 0));
        auto value = static_cast<std::uint64_t>(std::strtoull(st.args[2].c_str(), nullptr, 0));
        auto s = m_msr->write(cpu, addr, value);
        if (s) record("wrmsr " + st.args[1] + " " + st.args[2] + " on CPU " + std::to_string(cpu));
        return s;
    }
    if (st.verb == "unavailable") {
        std::uint32_t rmid = 0;
        unsigned domain = 0;
        std::uint64_t forNs = 1'000'000'000;
        for (const auto& a : st.args) {
            std::string k, v;
            if (!kv(a, k, v)) return errnoError(EINVAL, "usage: unavailable rmid=N [domain=D] [for=TIME]");
            if (k == "rmid")
                rmid = std::uint32_t(std::strtoul(v.c_str(), nullptr, 10));
            else if (k == "domain")
                domain = unsigned(std::strtoul(v.c_str(), nullptr, 10));
            else if (k == "for") {
                auto d = parseDuration(v);
                if (!d) return d.error();
                forNs = *d;
            } else
                return errnoError(EINVAL, "usage: unavailable rmid=N [domain=D] [for=TIME]");
        }
        if (domain >= m_machine->l3DomainCount()) return errnoError(EINVAL, "no L3 domain " + std::to_string(domain));
        m_machine->setUnavailable(domain, rmid, now + forNs);
        record("RMID " + std::to_string(rmid) + " data unavailable for " + formatTime(forNs));
        return {};
    }
    if (st.verb == "flush") {
        m_machine->flushCaches();
        record("caches flushed");
        return {};
    }
    return errnoError(EINVAL, "unknown scenario command '" + st.verb + "'");
}

Status Simulation::remountResctrl(bool cdp)
{
    std::lock_guard lock(m_machine->mutex());
    if (cdp && !m_machine->features().l3Cat.cdp)
        return errnoError(EINVAL, "mount -o cdp: the simulated processor has no L3 CDP (CPUID.10H.1:ECX[2]=0)",
            "pick a preset with CDP (bdw-6850k)");
    const ResctrlGroupSnapshot groups = ResctrlGroupSnapshot::take(*m_fs);
    ResctrlMountOptions options = m_fs->options();
    options.cdp = cdp;
    m_fs.reset(); // rdt_kill_sb: every group removed, every control and CDP back to the defaults
    auto mounted = SimResctrlFs::mount(*m_machine, options);
    if (!mounted) { // cannot happen after the check above; mount without CDP rather than leave nothing mounted
        options.cdp = false;
        mounted = SimResctrlFs::mount(*m_machine, options);
        if (!mounted) return mounted.error();
    }
    m_fs = std::move(*mounted);
    const std::uint64_t now = m_machine->nowNs();
    m_events.push_back({ now,
        std::string("umount /sys/fs/resctrl; mount -t resctrl resctrl ") + (cdp ? "-o cdp " : "")
            + "/sys/fs/resctrl (L3 CDP " + (cdp ? "on" : "off") + ")",
        true, false });
    // Re-provision: the groups with their tasks and CPUs; a failure (fewer CLOSIDs with CDP) is reported, not fatal.
    for (const auto& failure : groups.restore(*m_fs))
        m_events.push_back({ now, failure, false, false });
    return {};
}

} // namespace rdt::sim
