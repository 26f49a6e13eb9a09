// SPDX-License-Identifier: GPL-3.0-or-later
#include "StopSignals.h"

#include <csignal>

namespace rdt::session {

namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void onStopSignal(int sig)
{
    if (g_signal != 0) std::signal(sig, SIG_DFL); // second Ctrl-C: the default action on the next one
    g_signal = sig;
}

} // namespace

void StopSignals::install()
{
    struct sigaction sa { };
    sa.sa_handler = &onStopSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; // no SA_RESTART: a sleeping loop wakes up at once
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

bool StopSignals::requested()
{
    return g_signal != 0;
}
int StopSignals::which()
{
    return static_cast<int>(g_signal);
}
void StopSignals::reset()
{
    g_signal = 0;
}

} // namespace rdt::session
