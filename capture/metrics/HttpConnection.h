// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/UniqueFd.h"

#include <atomic>
#include <cstdint>
#include <httplib.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <string>

namespace rdt::metrics {

/// One accepted connection of the metrics endpoint (plain or TLS) and its input buffer. The accept loop advances it
/// without blocking until a whole request head (request line and headers) is buffered; only then does a worker
/// serve it, through the httplib::Stream interface, with every wait bounded by the deadline set for that step.
class HttpConnection final : public httplib::Stream {
public:
    enum class Progress {
        Waiting, ///< poll pollEvents() and call advance() again
        Ready, ///< a whole request head is buffered: hand it to a worker
        Closed, ///< end of file, an error, a failed handshake or a head larger than the limit
    };

    /// Takes a non-blocking socket; `tls` (not owned, may be null) makes it a TLS server connection. While `stop`
    /// is set, every wait gives up (within 100 ms).
    HttpConnection(UniqueFd fd, SSL_CTX* tls, std::string peerAddress, const std::atomic<bool>* stop);
    ~HttpConnection() override;
    HttpConnection(const HttpConnection&) = delete;
    HttpConnection& operator=(const HttpConnection&) = delete;

    const std::string& peerAddress() const { return m_peer; }
    /// The TLS handshake, then reads what has arrived (never blocks).
    Progress advance();
    short pollEvents() const { return static_cast<short>(m_wantWrite ? POLLOUT : POLLIN); }
    /// When the current step (a request head, a response) must be done by (CLOCK_MONOTONIC ns).
    std::uint64_t deadlineNs = 0;
    /// Requests served on this connection (keep-alive).
    unsigned served = 0;

    // httplib::Stream, used by a worker: waits at most until deadlineNs.
    bool is_readable() const override;
    bool is_writable() const override;
    ssize_t read(char* ptr, size_t size) override;
    ssize_t write(const char* ptr, size_t size) override;
    void get_remote_ip_and_port(std::string& ip, int& port) const override;
    void get_local_ip_and_port(std::string& ip, int& port) const override;
    socket_t socket() const override { return m_fd.get(); }

private:
    /// One non-blocking read into the buffer: bytes read, 0 at end of file, -1 with errno EAGAIN or an error.
    ssize_t fill();
    bool waitFor(short events) const;
    bool headComplete() const;

    UniqueFd m_fd;
    SSL* m_ssl = nullptr;
    bool m_handshakeDone = false;
    bool m_failed = false;
    bool m_wantWrite = false;
    std::string m_peer;
    const std::atomic<bool>* m_stop;
    std::string m_in; ///< bytes read and not yet consumed, from m_inPos
    std::size_t m_inPos = 0;
};

} // namespace rdt::metrics
