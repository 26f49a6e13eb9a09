// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for the agent protocol's receiving side: any bytes, as they would arrive on a connection (preamble,
// frames, zstd bodies, Envelopes, sample batches), read through the same Connection the agent and the client
// use. It must never crash, hang or allocate without bound; a protocol error is the expected outcome.
#include "protocol/Connection.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

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
        for (const auto& m : in)
            if (m.samples) messages += m.samples->batch.samples.size();
        if (c.peerClosed()) break;
    }
    if (!closed) ::close(sv[1]);
    (void)messages;
    return 0;
}
