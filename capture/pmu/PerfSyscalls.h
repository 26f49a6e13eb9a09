// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The perf_event_open seam (docs/ARCHITECTURE.md "The seams"): everything the live `perf` source asks of the kernel
// goes through PerfSyscalls, so recipes, error advice and the session logic run in tests against a fake kernel.

#include "PerfRecord.h"
#include "core/MappedRegion.h"
#include "core/Result.h"
#include "core/UniqueFd.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace rdt::pmu {

/// One core PMU of a hybrid part: /sys/bus/event_source/devices/cpu_core (P-cores) or cpu_atom (E-cores). perf
/// opens every hardware event once per core PMU, with that PMU's type and, per CPU, only on its CPUs.
struct HybridPmu {
    std::string name; ///< "cpu_core" or "cpu_atom"
    std::uint32_t type = 0; ///< <pmu>/type: attr.type for raw events, bits 32-63 of config for generic ones
    std::vector<int> cpus; ///< <pmu>/cpus (a CPU list such as "0-7" or "8-15")
};

/// What the machine says about perf, read once; the advice for a failing perf_event_open is built from it.
struct PerfEnvironment {
    int paranoid = 2; ///< /proc/sys/kernel/perf_event_paranoid (the kernel default is 2; 4 on some distros)
    bool paranoidKnown = false;
    bool hasCpuPmu = false; ///< /sys/bus/event_source/devices/cpu exists (the core PMU; absent in most VMs)
    bool hasCpuCorePmu = false; ///< hybrid parts: cpu_core (P-cores) and cpu_atom
    std::uint32_t cpuCoreType = 0; ///< cpu_core/type, the PMU type to use instead of PERF_TYPE_RAW (4)
    std::vector<int> cpuCoreCpus; ///< cpu_core/cpus
    bool hasCpuAtomPmu = false; ///< hybrid parts: cpu_atom (E-cores)
    std::uint32_t cpuAtomType = 0; ///< cpu_atom/type (dynamic: the kernel registers only cpu_core as type 4)
    std::vector<int> cpuAtomCpus; ///< cpu_atom/cpus
    int cpuFamily = 0, cpuModel = 0; ///< /proc/cpuinfo "cpu family" and "model" (which E-core generation)
    bool isRoot = false;
    std::string vendor; ///< "GenuineIntel", "AuthenticAMD", ... from /proc/cpuinfo
    bool hypervisor = false; ///< /proc/cpuinfo flags has "hypervisor"
    bool smtActive = false; ///< /sys/devices/system/cpu/smt/active is 1 (sibling threads share a core's slots)
    /// AnyThread counting (SDM 22.2.3.1) is allowed: the kernel refuses it with EACCES unless
    /// perf_event_paranoid <= 0 or the caller has CAP_PERFMON (approximated by root).
    bool anyThreadAllowed() const { return isRoot || (paranoidKnown && paranoid <= 0); }
    /// The core PMUs of a hybrid part, cpu_core first; empty on a part with one core PMU ("cpu").
    std::vector<HybridPmu> hybridPmus() const;
};

/// Fills the hybrid fields of `env` (cpu_core / cpu_atom: present, type, cpus) from
/// `devices`/cpu_{core,atom}/{type,cpus}; LinuxPerfSyscalls passes /sys/bus/event_source/devices.
void readHybridPmus(const std::string& devices, PerfEnvironment& env);

class PerfSyscalls {
public:
    virtual ~PerfSyscalls() = default;
    /// perf_event_open(2). Errors carry errno; advice is added by openAdvice().
    virtual Result<UniqueFd> open(const EventAttr& attr, pid_t pid, int cpu, int groupFd, unsigned long flags) = 0;
    virtual Status ioctl(int fd, unsigned long request, unsigned long arg) = 0;
    /// mmap(2) of `size` bytes, read-write (so data_tail can be written and the kernel never overwrites).
    virtual Result<MappedRegion> mmap(int fd, std::size_t size) = 0;
    /// read(2) of a counter or group; returns the bytes read.
    virtual Result<std::size_t> read(int fd, std::span<std::byte> out) = 0;
    virtual PerfEnvironment environment() = 0;
};

/// The real kernel. The attr is passed in the kernel layout (serializeEventAttr, 136 bytes; newer kernels accept
/// it, older ones accept it as long as the unknown tail is zero).
class LinuxPerfSyscalls final : public PerfSyscalls {
public:
    Result<UniqueFd> open(const EventAttr& attr, pid_t pid, int cpu, int groupFd, unsigned long flags) override;
    Status ioctl(int fd, unsigned long request, unsigned long arg) override;
    Result<MappedRegion> mmap(int fd, std::size_t size) override;
    Result<std::size_t> read(int fd, std::span<std::byte> out) override;
    PerfEnvironment environment() override;
};

/// Turns a failed perf_event_open into an Error whose advice names the real cause: no `cpu` PMU (a VM without a
/// virtual PMU, or a non-Intel CPU for Intel raw events), perf_event_paranoid and CAP_PERFMON, an event the
/// model does not support, a PMU busy with another tool (tools/perf/util/evsel.c evsel__open_strerror does this).
Error openAdvice(
    int err, const EventAttr& attr, const std::string& eventName, const PerfEnvironment& env, bool systemWide);

/// True when the attr needs the core PMU (raw or hardware events), false for software events.
bool needsCpuPmu(const EventAttr& attr);

// perf_event_attr.type values [uapi]
constexpr std::uint32_t TypeHardware = 0, TypeSoftware = 1, TypeTracepoint = 2, TypeHwCache = 3, TypeRaw = 4;
constexpr std::uint64_t SwCpuClock = 0, SwTaskClock = 1;

} // namespace rdt::pmu
