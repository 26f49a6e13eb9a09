// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Frame.h"
#include "SampleCodec.h"
#include "agent.pb.h"
#include "core/Result.h"
#include "core/UniqueFd.h"
#include "rdt/Sample.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdt::protocol {

struct ConnectionOptions {
    std::string peerName = "the peer"; ///< "the agent on HOST", "client 12 (uid 1000)": used in messages
    std::uint32_t maxFrameBytes = kDefaultMaxFrameBytes;
    std::uint32_t preambleVersion = 0; ///< the version announced in the preamble; 0 = kProtocolVersion
    /// Output waiting above this: new sample batches replace the one not yet sent (coalescing).
    std::size_t sampleHighWaterBytes = 256u << 10;
    /// Output waiting above this although only control messages were queued: the peer does not read; close.
    std::size_t outputLimitBytes = 32u << 20;
    std::uint64_t heartbeatNs = 2'000'000'000; ///< send a heartbeat after this long without sending anything
    std::uint64_t silenceLimitNs = 15'000'000'000; ///< close after this long without receiving anything
};

/// One message read from the peer. Sample batches arrive already decoded (the decoder's state is the
/// connection's), everything else as the envelope.
struct Incoming {
    pb::Envelope envelope;
    std::optional<DecodedSamples> samples;
};

/// Traffic figures for logs and the benchmark.
struct ConnectionStats {
    std::uint64_t bytesIn = 0;
    std::uint64_t bytesOut = 0;
    std::uint64_t framesIn = 0;
    std::uint64_t framesOut = 0;
    std::uint64_t framesCompressed = 0; ///< of framesOut, those sent zstd-compressed
    std::uint64_t batchesCoalesced = 0;
};

/// One end of an rdtscope byte stream (a pipe pair, an ssh child's stdio, a unix socket) over non-blocking
/// file descriptors: the preamble, frames, flow control and heartbeats of docs/PROTOCOL.md. Not thread-safe;
/// the owner polls readFd() (and writeFd() when wantWrite()).
class Connection {
public:
    /// `writeFd` may be empty for a socket, which is then read and written through `readFd`.
    Connection(UniqueFd readFd, UniqueFd writeFd, ConnectionOptions options, std::uint64_t nowNs);

    int readFd() const { return m_read.get(); }
    int writeFd() const { return m_write.valid() ? m_write.get() : m_read.get(); }
    bool wantWrite() const { return m_outPos < m_out.size() || m_pendingSamples.has_value(); }
    const ConnectionOptions& options() const { return m_opt; }
    const ConnectionStats& stats() const { return m_stats; }
    /// The version in the peer's preamble, once it arrived (0 before).
    std::uint32_t peerPreambleVersion() const { return m_peerVersion; }
    /// True once the peer closed its end cleanly (end of file after whole frames).
    bool peerClosed() const { return m_eof; }

    /// Reads what the descriptor has now (up to a bounded amount) and appends complete messages to `out`.
    /// An Error means the stream is unusable: close it and show the message.
    Status readAvailable(std::vector<Incoming>& out, std::uint64_t nowNs);
    /// Writes what the descriptor accepts now.
    Status flush(std::uint64_t nowNs);
    /// Queues a control message (request, response, notice, goodbye): these are never dropped.
    Status send(const pb::Envelope& envelope);
    /// Queues a sample batch; when the peer lags, it replaces the batch not yet sent and counts it as dropped.
    void sendSamples(const RdtSampleBatch& batch);
    /// Heartbeat when idle; an Error when the peer has been silent longer than the limit.
    Status tick(std::uint64_t nowNs);
    /// Writes everything queued, waiting at most `timeoutMs` (for a goodbye before closing).
    Status drain(int timeoutMs);

private:
    Status queueFrame(const pb::Envelope& envelope, bool mayCompress);
    void promoteSamples();
    Status decodeFrames(std::vector<Incoming>& out);

    UniqueFd m_read;
    UniqueFd m_write;
    bool m_writeIsSocket = false; ///< writes use send(MSG_NOSIGNAL)
    ConnectionOptions m_opt;
    ConnectionStats m_stats;
    FrameEncoder m_encoder;
    FrameDecoder m_decoder;
    SampleEncoder m_sampleEncoder;
    SampleDecoder m_sampleDecoder;
    std::vector<std::uint8_t> m_out;
    std::size_t m_outPos = 0;
    std::vector<std::uint8_t> m_preambleIn;
    std::uint32_t m_peerVersion = 0;
    std::optional<RdtSampleBatch> m_pendingSamples;
    std::uint64_t m_droppedSinceSent = 0;
    std::uint64_t m_lastSentNs = 0;
    std::uint64_t m_lastReceivedNs = 0;
    bool m_eof = false;
    std::string m_scratch;
};

/// Sets O_NONBLOCK (and FD_CLOEXEC) on a descriptor.
Status makeNonBlocking(int fd);

} // namespace rdt::protocol
