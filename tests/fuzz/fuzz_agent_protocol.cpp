// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for the agent protocol's receiving side: any bytes, as they would arrive on a connection (preamble,
// frames, zstd bodies, Envelopes, sample batches), read through the same Connection the agent and the client
// use. It must never crash, hang or allocate without bound; a protocol error is the expected outcome. Every request
// that decodes also goes through the agent's work bounds (agent/CommandChecks.h): what they accept must be within
// them, whatever the fields say.
#include "agent/CommandChecks.h"
#include "protocol/Connection.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace {
/// Aborts (the fuzzer's finding) when the bounds accept a request that causes more work than they allow.
void checkBounds(const rdtscope::agent::v1::Request& r)
{
    using namespace rdt::agent;
    constexpr std::uint64_t now = 1'000'000'000;
    if (!checkWorkBounds(r, now)) return;
    if (r.has_advance_to() && r.advance_to().time_ns() > now && r.advance_to().time_ns() - now > kMaxAdvanceNs)
        std::abort();
    if (r.has_start_pmu() && r.start_pmu().simulated() && r.start_pmu().sim_cycles_per_pump() > kMaxPumpCycles)
        std::abort();
    if (r.has_experiment() && r.experiment().groups_size() > kMaxExperimentGroups) std::abort();
    if (r.has_pmu_report() && r.pmu_report().top_n() > kMaxReportRows) std::abort();
}
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace rdt::protocol;
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) != 0) return 0;
    ConnectionOptions o;
    o.peerName = "fuzz";
    o.maxFrameBytes = 256 * 1024;
    Connection c { rdt::UniqueFd(sv[0]), {}, o, 0 };
    std::size_t written = 0;
    bool closed = false;
    std::uint64_t messages = 0;
    // Feed in chunks so frame boundaries fall everywhere; read after each chunk as the agent's loop would.
    for (int rounds = 0; rounds < 100000; ++rounds) {
        if (written < size) {
            const std::size_t chunk = std::min<std::size_t>(size - written, 1 + (written * 7919) % 4096);
            const ssize_t n = ::write(sv[1], data + written, chunk);
            if (n > 0) written += static_cast<std::size_t>(n);
        }
        if (written == size && !closed) {
            ::close(sv[1]);
            closed = true;
        }
        std::vector<Incoming> in;
        if (!c.readAvailable(in, 1)) break;
        messages += in.size();
        for (const auto& m : in) {
            if (m.samples) messages += m.samples->batch.samples.size();
            if (m.envelope.has_request()) checkBounds(m.envelope.request());
        }
        if (c.peerClosed()) break;
    }
    if (!closed) ::close(sv[1]);
    (void)messages;
    return 0;
}
