// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "platform/MsrSpace.h"

#include "core/UniqueFd.h"

#include <map>
#include <mutex>
#include <string>

namespace rdt {

/// MsrSpace over the Linux msr driver: pread/pwrite of 8 bytes at offset = MSR address on /dev/cpu/N/msr
/// (the directory is configurable so tests can point it at ordinary files). Files are opened on first use and
/// kept open. Errors: EIO is the #GP(0) of RDMSR/WRMSR (SDM 20.18.8.1, 20.19.6.3: reserved bits, RMID/CLOS out
/// of range, bad CBM); ENOENT advises `modprobe msr`; EACCES/EPERM advise root or CAP_SYS_RAWIO.
class DevMsr final : public MsrSpace {
public:
    /// cpuCount: how many logical CPUs exist (/dev/cpu/0..cpuCount-1); 0 counts the numeric entries of devRoot.
    explicit DevMsr(std::string devRoot = "/dev/cpu", unsigned cpuCount = 0, bool writable = true);

    Result<std::uint64_t> read(unsigned cpu, std::uint32_t msr) override;
    Status write(unsigned cpu, std::uint32_t msr, std::uint64_t value) override;
    unsigned cpuCount() const override { return m_cpuCount; }
    std::string describe() const override;

    /// The file for a CPU: devRoot + "/" + cpu + "/msr".
    std::string pathFor(unsigned cpu) const;

private:
    Result<int> fdFor(unsigned cpu);

    std::string m_root;
    unsigned m_cpuCount = 0;
    bool m_writable = true;
    std::mutex m_mutex; ///< guards m_fds; pread/pwrite themselves are thread-safe
    std::map<unsigned, UniqueFd> m_fds;
};

} // namespace rdt
