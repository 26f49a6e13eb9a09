// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace rdt::session {

/// SIGINT/SIGTERM turn into a flag the recording loop polls, so `record` flushes and closes its file instead of
/// dying mid-transaction. A second signal restores the default action (a stuck process can still be stopped).
class StopSignals {
public:
    static void install();
    static bool requested();
    /// The signal that asked to stop (SIGINT/SIGTERM), 0 when none.
    static int which();
    /// Tests: forget a previous request.
    static void reset();
};

} // namespace rdt::session
