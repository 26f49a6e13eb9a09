// SPDX-License-Identifier: GPL-3.0-or-later
#include "PerfSyscalls.h"

#include "RecordDecoder.h"
#include "core/IdList.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace rdt::pmu {

namespace {

std::string slurp(const char* path)
{
    std::ifstream in(path);
    if (!in) return {};
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool exists(const char* path)
{
    struct stat st { };
    return ::stat(path, &st) == 0;
}

} // namespace

Result<UniqueFd> LinuxPerfSyscalls::open(const EventAttr& attr, pid_t pid, int cpu, int groupFd, unsigned long flags)
{
    const auto bytes = serializeEventAttr(attr, perf::AttrSizeVer8);
    const long fd = ::syscall(SYS_perf_event_open, bytes.data(), pid, cpu, groupFd, flags);
    if (fd < 0) return errnoError(errno, "perf_event_open");
    return UniqueFd(static_cast<int>(fd));
}

Status LinuxPerfSyscalls::ioctl(int fd, unsigned long request, unsigned long arg)
{
    if (::ioctl(fd, request, arg) < 0) return errnoError(errno, "ioctl on a perf event");
    return {};
}

Result<MappedRegion> LinuxPerfSyscalls::mmap(int fd, std::size_t size)
{
    void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) // EPERM here usually means perf_event_mlock_kb is exhausted
        return errnoError(errno, "mmap of the perf ring",
            errno == EPERM ? "the ring exceeds perf_event_mlock_kb: use fewer pages or raise "
                             "/proc/sys/kernel/perf_event_mlock_kb"
                           : std::string {});
    return MappedRegion(p, size);
}

Result<std::size_t> LinuxPerfSyscalls::read(int fd, std::span<std::byte> out)
{
    const ssize_t n = ::read(fd, out.data(), out.size());
    if (n < 0) return errnoError(errno, "read of a perf counter");
    return static_cast<std::size_t>(n);
}

PerfEnvironment LinuxPerfSyscalls::environment()
{
    PerfEnvironment env;
    const std::string p = slurp("/proc/sys/kernel/perf_event_paranoid");
    if (!p.empty()) {
        env.paranoid = std::atoi(p.c_str());
        env.paranoidKnown = true;
    }
    env.hasCpuPmu = exists("/sys/bus/event_source/devices/cpu");
    readHybridPmus("/sys/bus/event_source/devices", env);
    env.isRoot = ::geteuid() == 0;
    env.smtActive = slurp("/sys/devices/system/cpu/smt/active").rfind('1', 0) == 0;
    std::istringstream cpuinfo(slurp("/proc/cpuinfo"));
    for (std::string line; std::getline(cpuinfo, line);) {
        if (env.vendor.empty() && line.rfind("vendor_id", 0) == 0) env.vendor = line.substr(line.find(':') + 2);
        if (line.rfind("cpu family", 0) == 0) env.cpuFamily = std::atoi(line.c_str() + line.find(':') + 1);
        if (line.rfind("model", 0) == 0 && line.rfind("model name", 0) != 0)
            env.cpuModel = std::atoi(line.c_str() + line.find(':') + 1);
        if (line.rfind("flags", 0) == 0) {
            env.hypervisor = line.find(" hypervisor") != std::string::npos;
            break;
        }
    }
    return env;
}

void readHybridPmus(const std::string& devices, PerfEnvironment& env)
{
    struct Slot {
        const char* name;
        bool& has;
        std::uint32_t& type;
        std::vector<int>& cpus;
    };
    for (Slot s : { Slot { "cpu_core", env.hasCpuCorePmu, env.cpuCoreType, env.cpuCoreCpus },
             Slot { "cpu_atom", env.hasCpuAtomPmu, env.cpuAtomType, env.cpuAtomCpus } }) {
        const std::string dir = devices + "/" + s.name;
        s.has = exists(dir.c_str());
        if (!s.has) continue;
        s.type = static_cast<std::uint32_t>(std::strtoul(slurp((dir + "/type").c_str()).c_str(), nullptr, 10));
        s.cpus.clear();
        // A malformed list leaves the PMU without CPUs (then it is not opened), never a guessed set.
        if (auto cpus = parseIdList(slurp((dir + "/cpus").c_str()), kernelCpuBound()))
            s.cpus.assign(cpus->begin(), cpus->end());
    }
}

std::vector<HybridPmu> PerfEnvironment::hybridPmus() const
{
    std::vector<HybridPmu> out;
    if (hasCpuCorePmu) out.push_back({ "cpu_core", cpuCoreType, cpuCoreCpus });
    if (hasCpuAtomPmu) out.push_back({ "cpu_atom", cpuAtomType, cpuAtomCpus });
    return out;
}

bool needsCpuPmu(const EventAttr& attr)
{
    return attr.type == TypeHardware || attr.type == TypeHwCache || attr.type == TypeRaw || attr.type > 5;
}

Error openAdvice(
    int err, const EventAttr& attr, const std::string& eventName, const PerfEnvironment& env, bool systemWide)
{
    const std::string what = "perf_event_open(" + eventName + ")";
    const bool anyCorePmu = env.hasCpuPmu || env.hasCpuCorePmu || env.hasCpuAtomPmu;
    if (needsCpuPmu(attr) && !anyCorePmu && (err == ENOENT || err == ENODEV || err == EOPNOTSUPP || err == EINVAL)) {
        std::string why = "no hardware PMU: /sys/bus/event_source/devices/cpu does not exist";
        if (env.hypervisor)
            why += "; this is a virtual machine whose hypervisor exposes no virtual PMU (enable vPMU, e.g. "
                   "`-cpu host,pmu=on` in QEMU/KVM, or run on bare metal)";
        else if (!env.vendor.empty() && env.vendor != "GenuineIntel")
            why += "; the CPU vendor is " + env.vendor + ", whose PMU driver is not loaded";
        why += ". Only software events (cpu-clock, task-clock) work here; use --source sim for the simulated PMU";
        return Error { err, what, why };
    }
    switch (err) {
    case EACCES:
    case EPERM: {
        std::string why = "perf_event_paranoid is ";
        why += env.paranoidKnown ? std::to_string(env.paranoid) : std::string("unknown");
        if (systemWide)
            why += "; system-wide capture needs perf_event_paranoid <= 0 or CAP_PERFMON (CAP_SYS_ADMIN before Linux "
                   "5.8): `sudo sysctl kernel.perf_event_paranoid=0` or `sudo setcap cap_perfmon+ep rdtscope-cli`";
        else if (!attr.excludeKernel())
            why += "; counting kernel code needs perf_event_paranoid <= 1 or CAP_PERFMON (user-only events work at 2)";
        else
            why += "; profiling another user's process needs CAP_PERFMON or ptrace rights over it, and "
                   "perf_event_paranoid 3+ (Debian's default when patched) forbids all unprivileged use: "
                   "`sudo sysctl kernel.perf_event_paranoid=2`";
        return Error { err, what, why };
    }
    case ENOENT:
    case EOPNOTSUPP:
        if (attr.sampleType & perf::SampleBranchStack)
            return Error { err, what, "branch stack (LBR) sampling is not supported by this PMU or this kernel" };
        return Error { err, what,
            "this event is not supported on this CPU model (check `rdtscope-cli pmu` model "
            "detection, or LIBPFM_FORCE_PMU for testing only)" };
    case EINVAL:
        return Error { err, what,
            "the kernel rejected the event attributes: an event or modifier this model does "
            "not support (TMA metric events need Ice Lake or later and a slots leader; "
            "precise_ip too high; ldlat out of range)" };
    case EBUSY:
        return Error { err, what,
            "the counters are in use by another tool (the NMI watchdog, perf, VTune): "
            "`echo 0 | sudo tee /proc/sys/kernel/nmi_watchdog`" };
    case ESRCH:
        return Error { err, what, "no such process" };
    case EMFILE:
        return Error { err, what, "too many open files: raise `ulimit -n`" };
    default:
        return errnoError(err, what);
    }
}

} // namespace rdt::pmu
