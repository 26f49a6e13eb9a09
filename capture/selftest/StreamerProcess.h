// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "StreamWorkload.h"

#include <atomic>
#include <map>
#include <sys/types.h>

namespace rdt::selftest {

/// The effect checks' streamer on real hardware: a forked child process pinned to one CPU that reads its buffer
/// line by line, over and over, and counts the bytes it read in memory shared with this process. It waits for
/// run() before it touches the buffer (so its lines are tagged with the group it was moved to), ends itself after
/// kMaxSeconds and when this process dies (PR_SET_PDEATHSIG), and stop() kills and reaps it.
class StreamerProcess final : public StreamWorkload {
public:
    static constexpr int kMaxSeconds = 60;
    /// `cancel`: set by a signal handler; run() then returns false at once. `unobservable`: why the streamers'
    /// cache use does not show in this resctrl tree (see unobservableReason), empty when it does.
    explicit StreamerProcess(const std::atomic<bool>* cancel = nullptr, std::string unobservable = {});
    ~StreamerProcess() override; ///< stops every streamer still running

    Result<unsigned> start(unsigned cpu, std::uint64_t workingSetBytes) override;
    void stop(unsigned task) override;
    bool run(std::uint64_t ns) override;
    std::optional<std::uint64_t> bytesMoved(unsigned task) const override;
    std::string unobservableReason() const override { return m_unobservable; }
    std::string describe() const override { return "streamer processes (bounded to 60 s each)"; }

private:
    struct Child {
        pid_t pid = -1;
        int go = -1; ///< write end of the pipe the child waits on
        std::atomic<std::uint64_t>* bytes = nullptr; ///< shared with the child
    };
    const std::atomic<bool>* m_cancel;
    std::string m_unobservable;
    std::map<unsigned, Child> m_children;
};

} // namespace rdt::selftest
