// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Who may do what (docs/PROTOCOL.md "Authorization"): each command belongs to one polkit action, and a unix-socket
// or pkexec client is asked about once per connection and action. The check runs polkit's own pkcheck (package
// polkitd, which must be installed for polkit to work at all), so the privileged agent links no D-Bus library and
// polkit itself builds the subject and talks to its daemon.

#include "agent.pb.h"
#include "core/Result.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <sys/types.h>

namespace rdt::agent {

namespace pb = rdtscope::agent::v1;

enum class Action { None, Monitor, Allocate, Profile };

/// "org.rdtscope.agent.monitor" and so on (resources/polkit/org.rdtscope.agent.policy); empty for None.
const char* actionId(Action action);

/// The action a request needs: Ping none; group changes and allocations Allocate; a real PMU capture Profile;
/// everything else reads (Monitor).
Action actionFor(const pb::Request& request);

/// The process polkit is asked about: the unix-socket peer (SO_PEERCRED) or pkexec's caller.
struct Subject {
    pid_t pid = 0;
    uid_t uid = 0;
    std::uint64_t startTime = 0; ///< /proc/PID/stat field 22, so a recycled pid is not mistaken for the client
    bool interactive = false; ///< pkexec's caller has a session with an authentication agent; a socket peer not
};

/// The subject for `pid` running as `uid`, or an error when the process is gone.
Result<Subject> subjectOf(pid_t pid, uid_t uid);

/// How one agent asks polkit: the pkcheck program and how long a check may take.
struct PolkitConfig {
    bool enabled = true; ///< false with --no-polkit (tests and containers without polkitd)
    std::string pkcheck = "pkcheck";
    int timeoutMs = 10000; ///< a non-interactive check; an interactive one gets 120 s for the password
};

/// One connection's answers; a yes is remembered for the connection, a no is asked again next time (the user may
/// have authenticated or added a rule meanwhile).
class Authorizer {
public:
    Authorizer(PolkitConfig config, std::optional<Subject> subject)
        : m_cfg(std::move(config))
        , m_subject(subject)
    { }
    /// Ok when polkit says yes (or there is nothing to check); else an error naming the action and how to allow it.
    Status check(Action action);

private:
    PolkitConfig m_cfg;
    std::optional<Subject> m_subject;
    std::array<bool, 4> m_granted {};
};

} // namespace rdt::agent
