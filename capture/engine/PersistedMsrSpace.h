// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/UniqueFd.h"
#include "platform/MsrSpace.h"

#include <map>
#include <memory>
#include <string>
#include <utility>

namespace rdt {

/// The simulated machine's RDT registers kept between processes (`--source sim-msr:DIR`), as a real machine keeps
/// its MSRs between two rdtscope runs until it reboots: that is what makes the MSR state file necessary
/// (docs/SAFE-WRITES.md, "MSR state between runs"), and this is how it is shown and tested on a laptop.
/// Every successful WRMSR of a control register (everything but IA32_QM_EVTSEL and IA32_QM_CTR, which hold no
/// configuration) is remembered, last value per CPU and MSR in the order written, and DIR/msrs is rewritten
/// atomically after it. On open the writes are replayed in that order on the fresh machine, so modes that
/// re-index others (CDP in IA32_L3_QOS_CFG) come back exactly as they were set. DIR/lock is held (flock) for as
/// long as the space lives: one simulated machine, one process at a time.
class PersistedMsrSpace final : public MsrSpace {
public:
    /// Opens DIR (created when missing, mode 0700), takes its lock and replays DIR/msrs into `inner`.
    static Result<std::shared_ptr<PersistedMsrSpace>> open(std::shared_ptr<MsrSpace> inner, const std::string& dir);

    Result<std::uint64_t> read(unsigned cpu, std::uint32_t msr) override { return m_inner->read(cpu, msr); }
    Status write(unsigned cpu, std::uint32_t msr, std::uint64_t value) override;
    unsigned cpuCount() const override { return m_inner->cpuCount(); }
    std::string describe() const override;

    std::size_t replayedWrites() const { return m_replayed; }

private:
    PersistedMsrSpace(std::shared_ptr<MsrSpace> inner, std::string dir, UniqueFd lock);
    Status load();
    Status save() const;

    std::shared_ptr<MsrSpace> m_inner;
    std::string m_dir;
    UniqueFd m_lock;
    std::uint64_t m_sequence = 0;
    /// (cpu, msr) -> (order written, value)
    std::map<std::pair<unsigned, std::uint32_t>, std::pair<std::uint64_t, std::uint64_t>> m_written;
    std::size_t m_replayed = 0;
};

} // namespace rdt
