// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/DevMsr.h"
#include "core/Text.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace rdt {

namespace {

std::string adviceFor(int err, const std::string& path)
{
    switch (err) {
    case ENOENT:
    case ENXIO:
        return "no " + path + ": load the msr driver with `sudo modprobe msr` (and check the CPU exists)";
    case EACCES:
    case EPERM:
        return "MSR access needs root or CAP_SYS_RAWIO (e.g. `sudo setcap cap_sys_rawio+ep rdtscope-cli`)";
    case EIO:
        return "the CPU raised #GP on RDMSR/WRMSR: the MSR or the value is not supported (SDM 20.18.8.1, 20.19.6.3)";
    default:
        return {};
    }
}

} // namespace

DevMsr::DevMsr(std::string devRoot, unsigned cpuCount, bool writable)
    : m_root(std::move(devRoot))
    , m_cpuCount(cpuCount)
    , m_writable(writable)
{
    if (m_cpuCount == 0) {
        std::error_code ec;
        for (std::filesystem::directory_iterator it(m_root, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos)
                m_cpuCount = std::max(m_cpuCount, static_cast<unsigned>(std::strtoul(name.c_str(), nullptr, 10)) + 1);
        }
    }
}

std::string DevMsr::pathFor(unsigned cpu) const
{
    return m_root + "/" + std::to_string(cpu) + "/msr";
}

std::string DevMsr::describe() const
{
    return m_root + "/N/msr (" + std::to_string(m_cpuCount) + " CPUs)";
}

Result<int> DevMsr::fdFor(unsigned cpu)
{
    std::lock_guard lock(m_mutex);
    if (auto it = m_fds.find(cpu); it != m_fds.end()) return it->second.get();
    const std::string path = pathFor(cpu);
    const int fd = ::open(path.c_str(), (m_writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        return errnoError(err, "cannot open " + path, adviceFor(err, path));
    }
    m_fds.emplace(cpu, UniqueFd(fd));
    return fd;
}

Result<std::uint64_t> DevMsr::read(unsigned cpu, std::uint32_t msr)
{
    auto fd = fdFor(cpu);
    if (!fd) return fd.error();
    std::uint64_t value = 0;
    const ssize_t n = ::pread(*fd, &value, sizeof value, static_cast<off_t>(msr));
    if (n != static_cast<ssize_t>(sizeof value)) {
        // A short read (e.g. past the end of a stand-in file) is what the driver reports as EIO.
        const int err = n < 0 ? errno : EIO;
        return errnoError(err, "RDMSR " + formatHex(msr) + " on CPU " + std::to_string(cpu) + " failed",
            adviceFor(err, pathFor(cpu)));
    }
    return value;
}

Status DevMsr::write(unsigned cpu, std::uint32_t msr, std::uint64_t value)
{
    if (!m_writable) return errnoError(EROFS, "WRMSR " + formatHex(msr) + " refused: MSR space opened read-only");
    auto fd = fdFor(cpu);
    if (!fd) return fd.error();
    const ssize_t n = ::pwrite(*fd, &value, sizeof value, static_cast<off_t>(msr));
    if (n != static_cast<ssize_t>(sizeof value)) {
        const int err = n < 0 ? errno : EIO;
        return errnoError(err,
            "WRMSR " + formatHex(msr) + " = " + formatHex(value) + " on CPU " + std::to_string(cpu) + " failed",
            adviceFor(err, pathFor(cpu)));
    }
    return {};
}

} // namespace rdt
