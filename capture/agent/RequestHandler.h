// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "agent.pb.h"
#include "rdt/Sample.h"

#include <string>
#include <variant>
#include <vector>

namespace rdt::agent {

namespace pb = rdtscope::agent::v1;

/// What a handler gives the agent's loop to send: a control message (never dropped) or a sample batch (replaced by
/// the next one when the client lags, docs/PROTOCOL.md "Flow control").
using Outgoing = std::variant<pb::Envelope, RdtSampleBatch>;

/// Serves one client's requests. Its commands run on the client's worker thread (RequestWorker), never on the
/// agent's loop; the worker calls it from one thread at a time. cancel() and streaming() are called from the loop.
class RequestHandler {
public:
    virtual ~RequestHandler() = default;
    /// Fills `response` (its id is already set) with the command's result or error.
    virtual void handle(const pb::Request& request, pb::Response& response) = 0;
    /// Appends what the engine produced since the last call (sample batches, notices).
    virtual void takeEvents(std::vector<Outgoing>& out) = 0;
    /// The client is gone or said goodbye: stop captures, reap launched commands, restore when asked.
    virtual void end(const std::string& why) = 0;
    /// A descriptor that becomes readable when the engine has events to forward (so a batch the sampler thread
    /// produced goes out at once, not at the loop's next tick); -1 for none. takeEvents() re-arms it.
    virtual int wakeFd() const { return -1; }
    /// The session is ending: a command in progress stops at its next slice (thread-safe).
    virtual void cancel() { }
    /// The engine works for the client without being asked (sampling streams batches), so a client that sends no
    /// requests is not idle (thread-safe).
    virtual bool streaming() const { return false; }
};

} // namespace rdt::agent
