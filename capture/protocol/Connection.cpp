// SPDX-License-Identifier: GPL-3.0-or-later
#include "Connection.h"

#include "Preamble.h"
#include "core/Time.h"

#include <cerrno>
#include <fcntl.h>
#include <google/protobuf/stubs/logging.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rdt::protocol {

namespace {
// libprotobuf logs parse problems (invalid UTF-8 in a string field) to stderr on its own; the connection already
// turns a failed parse into an Error with the peer's name, so the library's own line would only be noise.
const bool g_quietProtobuf = [] {
    google::protobuf::SetLogHandler(nullptr);
    return true;
}();
}

Status makeNonBlocking(int fd)
{
    const int fl = ::fcntl(fd, F_GETFL);
    if (fl < 0 || ::fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) return errnoError(errno, "cannot make fd non-blocking");
    const int fdfl = ::fcntl(fd, F_GETFD);
    if (fdfl >= 0) ::fcntl(fd, F_SETFD, fdfl | FD_CLOEXEC);
    return {};
}

Connection::Connection(UniqueFd readFd, UniqueFd writeFd, ConnectionOptions options, std::uint64_t nowNs)
    : m_read(std::move(readFd))
    , m_write(std::move(writeFd))
    , m_opt(std::move(options))
    , m_decoder(m_opt.maxFrameBytes)
    , m_lastSentNs(nowNs)
    , m_lastReceivedNs(nowNs)
{
    (void)makeNonBlocking(m_read.get());
    if (m_write.valid()) (void)makeNonBlocking(m_write.get());
    struct stat st { };
    m_writeIsSocket = ::fstat(this->writeFd(), &st) == 0 && S_ISSOCK(st.st_mode);
    const auto pre = encodePreamble(m_opt.preambleVersion ? m_opt.preambleVersion : kProtocolVersion);
    m_out.insert(m_out.end(), pre.begin(), pre.end());
}

Status Connection::queueFrame(const pb::Envelope& envelope, bool mayCompress)
{
    m_scratch.clear();
    if (!envelope.SerializeToString(&m_scratch)) return makeError("cannot serialise a protocol message");
    if (m_scratch.size() > m_opt.maxFrameBytes)
        return makeError("a protocol message of " + byteSizeText(m_scratch.size()) + " exceeds the frame limit of "
            + byteSizeText(m_opt.maxFrameBytes));
    if (m_outPos > 0 && m_outPos == m_out.size()) {
        m_out.clear();
        m_outPos = 0;
    }
    const auto* p = reinterpret_cast<const std::uint8_t*>(m_scratch.data());
    if (m_encoder.append({ p, m_scratch.size() }, mayCompress, m_out)) ++m_stats.framesCompressed;
    ++m_stats.framesOut;
    if (m_out.size() - m_outPos > m_opt.outputLimitBytes)
        return makeError(m_opt.peerName + " does not read what is sent to it (" + byteSizeText(m_out.size() - m_outPos)
            + " waiting)");
    return {};
}

Status Connection::send(const pb::Envelope& envelope)
{
    // Events (RDT sample batches) and responses (PMU batches and reports answer their commands) are what grows;
    // the encoder compresses only bodies where that pays, so small control messages stay raw anyway.
    return queueFrame(envelope, envelope.has_event() || envelope.has_response());
}

void Connection::sendSamples(const RdtSampleBatch& batch)
{
    if (m_pendingSamples) {
        ++m_droppedSinceSent;
        ++m_stats.batchesCoalesced;
    }
    m_pendingSamples = batch;
    promoteSamples();
}

void Connection::promoteSamples()
{
    if (!m_pendingSamples || m_out.size() - m_outPos > m_opt.sampleHighWaterBytes) return;
    pb::Envelope env;
    m_sampleEncoder.encode(*m_pendingSamples, m_droppedSinceSent, *env.mutable_event()->mutable_rdt_samples());
    m_pendingSamples.reset();
    m_droppedSinceSent = 0;
    // A batch too large for one frame cannot be sent at all; the encoder state already advanced, so this
    // connection must end (it does, through the output limit check on the next control message).
    (void)queueFrame(env, true);
}

Status Connection::flush(std::uint64_t nowNs)
{
    promoteSamples();
    while (m_outPos < m_out.size()) {
        // A peer gone must be an EPIPE error here, never a SIGPIPE that kills the process: sockets take
        // MSG_NOSIGNAL (every client transport is one: unix sockets, and ChildProcess's stdin); the agent's own
        // stdio may be pipes, and the agent ignores SIGPIPE.
        const ssize_t n = m_writeIsSocket
            ? ::send(writeFd(), m_out.data() + m_outPos, m_out.size() - m_outPos, MSG_NOSIGNAL)
            : ::write(writeFd(), m_out.data() + m_outPos, m_out.size() - m_outPos);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            if (errno == EPIPE) return makeError(m_opt.peerName + " closed the connection");
            return errnoError(errno, "cannot write to " + m_opt.peerName);
        }
        m_outPos += static_cast<std::size_t>(n);
        m_stats.bytesOut += static_cast<std::uint64_t>(n);
        m_lastSentNs = nowNs;
        if (m_outPos == m_out.size()) promoteSamples();
    }
    if (m_outPos == m_out.size()) {
        m_out.clear();
        m_outPos = 0;
    }
    return {};
}

Status Connection::readAvailable(std::vector<Incoming>& out, std::uint64_t nowNs)
{
    std::uint8_t buf[65536];
    // A bounded number of reads per call, so one busy peer cannot starve the others on the agent's loop.
    for (int round = 0; round < 16 && !m_eof; ++round) {
        std::size_t want = sizeof buf;
        if (m_peerVersion == 0) want = kPreambleBytes - m_preambleIn.size();
        const ssize_t n = ::read(m_read.get(), buf, want);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            return errnoError(errno, "cannot read from " + m_opt.peerName);
        }
        if (n == 0) {
            m_eof = true;
            if (m_peerVersion == 0 && !m_preambleIn.empty()) return parsePreamble(m_preambleIn, m_opt.peerName).error();
            if (m_peerVersion == 0) return makeError(m_opt.peerName + " closed the connection without a word");
            if (m_decoder.buffered() > 0)
                return makeError(m_opt.peerName + " closed the connection in the middle of a frame");
            break;
        }
        m_stats.bytesIn += static_cast<std::uint64_t>(n);
        m_lastReceivedNs = nowNs;
        if (m_peerVersion == 0) {
            m_preambleIn.insert(m_preambleIn.end(), buf, buf + n);
            // A shell error arrives as text shorter or longer than a preamble: judge as soon as the magic differs.
            const std::size_t cmp = std::min(m_preambleIn.size(), kMagic.size());
            if (!std::equal(
                    m_preambleIn.begin(), m_preambleIn.begin() + static_cast<std::ptrdiff_t>(cmp), kMagic.begin())) {
                // Collect a little more of the text (whatever is already there) for a useful message.
                const ssize_t more = ::read(m_read.get(), buf, 256);
                if (more > 0) m_preambleIn.insert(m_preambleIn.end(), buf, buf + more);
                return parsePreamble(m_preambleIn, m_opt.peerName).error();
            }
            if (m_preambleIn.size() < kPreambleBytes) continue;
            auto v = parsePreamble(m_preambleIn, m_opt.peerName);
            if (!v) return v.error();
            m_peerVersion = *v;
            continue;
        }
        m_decoder.feed({ buf, static_cast<std::size_t>(n) });
        if (auto st = decodeFrames(out); !st) return st;
    }
    return {};
}

Status Connection::decodeFrames(std::vector<Incoming>& out)
{
    for (;;) {
        auto body = m_decoder.next();
        if (!body) return body.error();
        if (!*body) return {};
        Incoming in;
        if (!in.envelope.ParseFromArray((*body)->data(), static_cast<int>((*body)->size())))
            return makeError("protocol error: " + m_opt.peerName + " sent a message that does not parse");
        ++m_stats.framesIn;
        if (in.envelope.has_event() && in.envelope.event().has_rdt_samples()) {
            auto s = m_sampleDecoder.decode(in.envelope.event().rdt_samples());
            if (!s) return s.error();
            in.samples = std::move(*s);
            in.envelope.mutable_event()->clear_rdt_samples();
        }
        out.push_back(std::move(in));
    }
}

Status Connection::tick(std::uint64_t nowNs)
{
    if (nowNs > m_lastReceivedNs && nowNs - m_lastReceivedNs > m_opt.silenceLimitNs)
        return makeError(m_opt.peerName + " has been silent for "
                + std::to_string((nowNs - m_lastReceivedNs) / 1'000'000'000) + " s",
            "the connection or the machine is gone; reconnect");
    if (nowNs > m_lastSentNs && nowNs - m_lastSentNs >= m_opt.heartbeatNs && !wantWrite() && m_peerVersion != 0) {
        pb::Envelope hb;
        hb.mutable_heartbeat()->set_sent_ns(nowNs);
        if (auto st = send(hb); !st) return st;
        m_lastSentNs = nowNs;
    }
    return {};
}

Status Connection::drain(int timeoutMs)
{
    const std::uint64_t deadline = monotonicNs() + static_cast<std::uint64_t>(timeoutMs) * 1'000'000;
    while (wantWrite()) {
        if (auto st = flush(monotonicNs()); !st) return st;
        if (!wantWrite()) break;
        const std::uint64_t now = monotonicNs();
        if (now >= deadline) return makeError("timed out sending to " + m_opt.peerName);
        pollfd p { writeFd(), POLLOUT, 0 };
        ::poll(&p, 1, static_cast<int>((deadline - now) / 1'000'000) + 1);
    }
    return {};
}

} // namespace rdt::protocol
