// SPDX-License-Identifier: GPL-3.0-or-later
#include "HttpListener.h"

#include "core/Time.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace rdt::metrics {

namespace {
std::string peerAddressOf(int fd)
{
    sockaddr_storage a {};
    socklen_t len = sizeof a;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) return "?";
    char host[NI_MAXHOST] = {};
    if (::getnameinfo(reinterpret_cast<sockaddr*>(&a), len, host, sizeof host, nullptr, 0, NI_NUMERICHOST) != 0)
        return "?";
    return host;
}
}

Result<std::unique_ptr<HttpListener>> HttpListener::open(
    const std::string& address, int port, SSL_CTX* tls, HttpLimits limits, Serve serve)
{
    const std::string where = address + ":" + std::to_string(port);
    addrinfo hints {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    addrinfo* found = nullptr;
    if (const int rc = ::getaddrinfo(address.c_str(), std::to_string(port).c_str(), &hints, &found); rc != 0)
        return makeError("cannot listen on " + where + ": " + ::gai_strerror(rc),
            "give an address of this host (127.0.0.1, 0.0.0.0, [::1], ...)");
    std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> list(found, ::freeaddrinfo);
    UniqueFd fd(::socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd) return errnoError(errno, "cannot listen on " + where);
    // SO_REUSEADDR lets a restarted exporter bind at once; not SO_REUSEPORT, with which a second exporter would bind
    // the same port and the kernel would split the scrapes between the two (socket(7)).
    const int yes = 1;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(fd.get(), found->ai_addr, found->ai_addrlen) != 0 || ::listen(fd.get(), SOMAXCONN) != 0)
        return errnoError(errno, "cannot listen on " + where,
            "is another exporter using that port, or is the address not one of this host's?");
    sockaddr_storage bound {};
    socklen_t len = sizeof bound;
    ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&bound), &len);
    const int boundPort = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6&>(bound).sin6_port
                                                            : reinterpret_cast<sockaddr_in&>(bound).sin_port);
    return std::unique_ptr<HttpListener>(
        new HttpListener(std::move(fd), boundPort, tls, std::move(limits), std::move(serve)));
}

HttpListener::HttpListener(UniqueFd listenFd, int port, SSL_CTX* tls, HttpLimits limits, Serve serve)
    : m_listen(std::move(listenFd))
    , m_port(port)
    , m_tls(tls)
    , m_limits(std::move(limits))
    , m_serve(std::move(serve))
    , m_wake(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC))
{
    m_loop = std::thread([this] { loop(); });
    for (unsigned i = 0; i < std::max(1u, m_limits.workers); ++i)
        m_workers.emplace_back([this] { work(); });
}

HttpListener::~HttpListener()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_stopping = true; // a worker waiting on a slow client gives up within 100 ms
    m_cv.notify_all();
    wake();
    if (m_loop.joinable()) m_loop.join();
    for (auto& w : m_workers)
        if (w.joinable()) w.join();
}

void HttpListener::wake()
{
    const std::uint64_t one = 1;
    if (m_wake) (void)!::write(m_wake.get(), &one, sizeof one);
}

void HttpListener::close(std::size_t index)
{
    const std::string& peer = m_waiting[index]->peerAddress();
    if (auto it = m_perAddress.find(peer); it != m_perAddress.end() && --it->second == 0) m_perAddress.erase(it);
    --m_open;
    m_waiting.erase(m_waiting.begin() + static_cast<std::ptrdiff_t>(index));
}

bool HttpListener::makeRoom(const std::string& address)
{
    auto oldestWaiting = [this](const std::string* of) {
        std::size_t best = m_waiting.size();
        for (std::size_t i = 0; i < m_waiting.size(); ++i)
            if ((!of || m_waiting[i]->peerAddress() == *of)
                && (best == m_waiting.size() || m_waiting[i]->deadlineNs < m_waiting[best]->deadlineNs))
                best = i;
        return best;
    };
    if (const auto it = m_perAddress.find(address); it != m_perAddress.end() && it->second >= m_limits.maxPerAddress) {
        const auto i = oldestWaiting(&address);
        if (i == m_waiting.size()) return false;
        close(i);
    }
    if (m_open >= m_limits.maxConnections) {
        const auto i = oldestWaiting(nullptr);
        if (i == m_waiting.size()) return false;
        close(i);
    }
    return true;
}

void HttpListener::accept(std::uint64_t nowNs)
{
    for (int i = 0; i < 64; ++i) {
        UniqueFd fd(::accept4(m_listen.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
        if (!fd) return; // EAGAIN, or an error the next accept sees again
        const std::string peer = peerAddressOf(fd.get());
        if (!makeRoom(peer)) continue; // every connection counted is being served: this one is closed
        ++m_perAddress[peer];
        ++m_open;
        m_waiting.push_back(std::make_unique<HttpConnection>(std::move(fd), m_tls, peer, &m_stopping));
        m_waiting.back()->deadlineNs = nowNs + m_limits.headTimeoutNs;
    }
}

void HttpListener::loop()
{
    std::vector<pollfd> fds;
    std::vector<std::unique_ptr<HttpConnection>> ready;
    for (;;) {
        std::vector<std::pair<std::unique_ptr<HttpConnection>, bool>> returned;
        {
            std::lock_guard lock(m_mutex);
            if (m_stop) break;
            returned.swap(m_returned);
        }
        std::uint64_t now = monotonicNs();
        for (auto& [connection, keep] : returned) {
            connection->deadlineNs = now + m_limits.headTimeoutNs;
            m_waiting.push_back(std::move(connection));
            if (!keep) {
                close(m_waiting.size() - 1);
                continue;
            }
            // A pipelined request may already be buffered: it gets no poll event of its own.
            const auto p = m_waiting.back()->advance();
            if (p == HttpConnection::Progress::Ready) {
                ready.push_back(std::move(m_waiting.back()));
                m_waiting.pop_back();
            } else if (p == HttpConnection::Progress::Closed) {
                close(m_waiting.size() - 1);
            }
        }
        if (!ready.empty()) handOver(ready);
        fds.clear();
        fds.push_back({ m_listen.get(), POLLIN, 0 });
        fds.push_back({ m_wake.get(), POLLIN, 0 });
        std::uint64_t nextDeadline = now + 1'000'000'000;
        for (const auto& c : m_waiting) {
            fds.push_back({ c->socket(), c->pollEvents(), 0 });
            nextDeadline = std::min(nextDeadline, c->deadlineNs);
        }
        const int timeoutMs = nextDeadline > now ? static_cast<int>((nextDeadline - now) / 1'000'000 + 1) : 0;
        if (::poll(fds.data(), fds.size(), timeoutMs) < 0 && errno != EINTR) break;
        if (fds[1].revents & POLLIN) {
            std::uint64_t count = 0;
            (void)!::read(m_wake.get(), &count, sizeof count);
        }
        now = monotonicNs();
        // fds[2 + i] belongs to m_waiting[i] as it was when polled; newly accepted ones come after.
        const std::size_t polled = fds.size() - 2;
        for (std::size_t i = polled; i-- > 0;) {
            auto& c = *m_waiting[i];
            HttpConnection::Progress p = HttpConnection::Progress::Waiting;
            if (fds[2 + i].revents != 0) p = c.advance();
            if (p == HttpConnection::Progress::Ready) {
                ready.push_back(std::move(m_waiting[i]));
                m_waiting.erase(m_waiting.begin() + static_cast<std::ptrdiff_t>(i));
            } else if (p == HttpConnection::Progress::Closed || now >= c.deadlineNs) {
                close(i); // the head did not arrive in time (a trickle counts no more than silence), or an error
            }
        }
        if (fds[0].revents & POLLIN) accept(now);
        if (!ready.empty()) handOver(ready);
    }
    m_waiting.clear();
}

void HttpListener::handOver(std::vector<std::unique_ptr<HttpConnection>>& ready)
{
    {
        std::lock_guard lock(m_mutex);
        for (auto& c : ready)
            m_ready.push_back(std::move(c));
    }
    ready.clear();
    m_cv.notify_all();
}

void HttpListener::work()
{
    for (;;) {
        std::unique_ptr<HttpConnection> c;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [this] { return m_stop || !m_ready.empty(); });
            if (m_stop) return;
            c = std::move(m_ready.front());
            m_ready.pop_front();
        }
        c->deadlineNs = monotonicNs() + m_limits.ioTimeoutNs;
        const bool last = ++c->served >= m_limits.requestsPerConnection;
        bool closed = false;
        const bool ok = m_serve(*c, last, closed);
        {
            std::lock_guard lock(m_mutex);
            m_returned.emplace_back(std::move(c), ok && !closed && !last);
        }
        wake();
    }
}

} // namespace rdt::metrics
