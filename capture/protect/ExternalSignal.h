// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An external signal (`--signal-cmd`): a shell command run once per control interval whose standard output's first word
// that is a number is the signal (a p99 latency from the service's own metrics, say). Bounded: the command is killed
// after the timeout, at most 4 KiB of its output is read, and anything that is not a finite number is no reading (the
// controller counts it as a lost signal, never as 0).

#include "core/Result.h"

#include <chrono>
#include <string>

namespace rdt::protect {

class ExternalSignal {
public:
    ExternalSignal(std::string command, std::chrono::milliseconds timeout);
    /// Runs the command once: its number, or why there is none.
    Result<double> read() const;
    const std::string& command() const { return m_command; }

private:
    std::string m_command;
    std::chrono::milliseconds m_timeout;
};

} // namespace rdt::protect
