// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "HttpConnection.h"
#include "core/Result.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace rdt::metrics {

/// The limits of the metrics endpoint's connections (README.md, "Fleets", has the figures).
struct HttpLimits {
    /// Connections open at once, and from one client address. Beyond either, the new connection takes the place of
    /// the oldest one that has not sent a whole request (of that address, or of any); if every one is being served,
    /// the new one is closed.
    std::size_t maxConnections = 512;
    std::size_t maxPerAddress = 64;
    /// A whole request head (request line and headers) must arrive within this, from the accept or from the end of
    /// the previous response (keep-alive), however slowly it trickles.
    std::uint64_t headTimeoutNs = 5'000'000'000;
    /// Reading a request body and writing a response, each.
    std::uint64_t ioTimeoutNs = 10'000'000'000;
    unsigned workers = 4;
    unsigned requestsPerConnection = 100;
};

/// The metrics endpoint's own accept loop, in front of cpp-httplib's request handling (whose fixed worker pool an
/// idle or trickling connection would hold: 200 idle connections kept a scrape waiting). One thread polls every
/// connection without blocking until a whole request head has arrived; only such a connection reaches one of the
/// workers, which serves it and hands it back for the next request. So idle connections cost a descriptor, never a
/// worker, and a scrape is served as soon as its head is in.
class HttpListener {
public:
    /// Serves one request on the connection: false or `closed` set when the connection must be closed after it.
    using Serve = std::function<bool(HttpConnection& connection, bool closeAfter, bool& closed)>;

    /// Binds ADDR:PORT (port 0: a free one) and listens; errors say which address and why.
    static Result<std::unique_ptr<HttpListener>> open(
        const std::string& address, int port, SSL_CTX* tls, HttpLimits limits, Serve serve);
    ~HttpListener(); ///< stops: the loop and the workers end, every connection is closed
    HttpListener(const HttpListener&) = delete;
    HttpListener& operator=(const HttpListener&) = delete;

    int port() const { return m_port; }

private:
    HttpListener(UniqueFd listenFd, int port, SSL_CTX* tls, HttpLimits limits, Serve serve);
    void loop();
    void work();
    void accept(std::uint64_t nowNs);
    /// Makes room for a connection from `address`: closes the oldest waiting connection of that address (or of
    /// any, for the total); false when every connection counted is being served.
    bool makeRoom(const std::string& address);
    void close(std::size_t index);
    /// Queues connections whose request head is in for the workers.
    void handOver(std::vector<std::unique_ptr<HttpConnection>>& ready);
    void wake();

    UniqueFd m_listen;
    int m_port = 0;
    SSL_CTX* m_tls;
    HttpLimits m_limits;
    Serve m_serve;
    UniqueFd m_wake; ///< eventfd: a worker handed a connection back, or stop
    std::vector<std::unique_ptr<HttpConnection>> m_waiting; ///< the loop's: connections without a whole request
    std::map<std::string, std::size_t> m_perAddress; ///< the loop's: open connections per address (served ones too)
    std::size_t m_open = 0;

    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::unique_ptr<HttpConnection>> m_ready; ///< to the workers
    std::vector<std::pair<std::unique_ptr<HttpConnection>, bool>> m_returned; ///< from them: (connection, keep)
    bool m_stop = false;
    std::atomic<bool> m_stopping { false };
    std::thread m_loop;
    std::vector<std::thread> m_workers;
};

} // namespace rdt::metrics
