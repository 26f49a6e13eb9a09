// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/LiveCpuid.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define RDTSCOPE_HAVE_CPUID 1
#else
#define RDTSCOPE_HAVE_CPUID 0
#endif

namespace rdt {

bool LiveCpuid::instructionAvailable()
{
    return RDTSCOPE_HAVE_CPUID != 0;
}

LiveCpuid::LiveCpuid()
{
    if (auto r = raw(0, 0)) m_maxBasic = r->eax;
    if (auto r = raw(0x80000000, 0)) m_maxExtended = r->eax;
}

Result<LiveCpuid> LiveCpuid::onCpu(unsigned cpu, const std::string& devRoot)
{
    const std::string path = devRoot + "/" + std::to_string(cpu) + "/cpuid";
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        std::string advice;
        if (err == ENOENT)
            advice = "load the cpuid driver: sudo modprobe cpuid (or use the CPUID instruction without --cpu)";
        else if (err == EACCES || err == EPERM)
            advice = "reading " + path + " needs root (or read permission on the device)";
        return errnoError(err, "cannot open " + path, advice);
    }
    LiveCpuid live;
    live.m_fd.reset(fd);
    live.m_cpu = cpu;
    live.m_path = path;
    live.m_maxBasic = 0;
    live.m_maxExtended = 0;
    if (auto r = live.raw(0, 0)) live.m_maxBasic = r->eax;
    if (auto r = live.raw(0x80000000, 0)) live.m_maxExtended = r->eax;
    return live;
}

std::optional<CpuidRegs> LiveCpuid::raw(std::uint32_t leaf, std::uint32_t subleaf)
{
    if (m_fd.valid()) {
        // The cpuid driver takes the leaf in the low 32 bits of the file offset and the sub-leaf in the high ones.
        std::uint32_t regs[4] = {};
        const off_t offset = static_cast<off_t>((std::uint64_t(subleaf) << 32) | leaf);
        if (::pread(m_fd.get(), regs, sizeof regs, offset) != static_cast<ssize_t>(sizeof regs)) return std::nullopt;
        return CpuidRegs { regs[0], regs[1], regs[2], regs[3] };
    }
#if RDTSCOPE_HAVE_CPUID
    unsigned a = 0, b = 0, c = 0, d = 0;
    __cpuid_count(leaf, subleaf, a, b, c, d);
    return CpuidRegs { a, b, c, d };
#else
    (void)leaf;
    (void)subleaf;
    return std::nullopt;
#endif
}

std::optional<CpuidRegs> LiveCpuid::query(std::uint32_t leaf, std::uint32_t subleaf)
{
    if (leaf == 0 || leaf == 0x80000000) return raw(leaf, subleaf);
    if (leaf < 0x80000000 ? leaf > m_maxBasic : leaf > m_maxExtended) return std::nullopt;
    return raw(leaf, subleaf);
}

std::string LiveCpuid::describe() const
{
    if (m_cpu) return m_path + " (live, logical CPU " + std::to_string(*m_cpu) + ")";
    return "CPUID instruction (live)";
}

} // namespace rdt
