// SPDX-License-Identifier: GPL-3.0-or-later
#include "HttpConnection.h"

#include "core/Time.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <string_view>
#include <sys/socket.h>

namespace rdt::metrics {

namespace {
/// A request head longer than this is refused (cpp-httplib allows 8 KiB per line; a scrape's head is < 1 KiB).
constexpr std::size_t kMaxHeadBytes = 32u << 10;

void addressOf(const sockaddr_storage& a, std::string& ip, int& port)
{
    char text[INET6_ADDRSTRLEN] = {};
    if (a.ss_family == AF_INET) {
        const auto& v4 = reinterpret_cast<const sockaddr_in&>(a);
        ::inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
        port = ntohs(v4.sin_port);
    } else if (a.ss_family == AF_INET6) {
        const auto& v6 = reinterpret_cast<const sockaddr_in6&>(a);
        ::inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
        port = ntohs(v6.sin6_port);
    }
    ip = text;
}
}

HttpConnection::HttpConnection(UniqueFd fd, SSL_CTX* tls, std::string peerAddress, const std::atomic<bool>* stop)
    : m_fd(std::move(fd))
    , m_peer(std::move(peerAddress))
    , m_stop(stop)
{
    if (tls) {
        m_ssl = SSL_new(tls);
        if (m_ssl) SSL_set_fd(m_ssl, m_fd.get());
        m_failed = m_ssl == nullptr; // never served without the TLS it was configured with
    } else {
        m_handshakeDone = true;
    }
}

HttpConnection::~HttpConnection()
{
    if (m_ssl) {
        if (m_handshakeDone) (void)SSL_shutdown(m_ssl); // one non-blocking close_notify, no wait for the peer's
        SSL_free(m_ssl);
    }
}

bool HttpConnection::headComplete() const
{
    const std::string_view pending(m_in.data() + m_inPos, m_in.size() - m_inPos);
    return pending.find("\r\n\r\n") != std::string_view::npos || pending.find("\n\n") != std::string_view::npos;
}

ssize_t HttpConnection::fill()
{
    if (m_inPos > 0 && m_inPos == m_in.size()) {
        m_in.clear();
        m_inPos = 0;
    }
    char buf[4096];
    if (!m_ssl) {
        const ssize_t n = ::recv(m_fd.get(), buf, sizeof buf, 0);
        if (n > 0) m_in.append(buf, static_cast<std::size_t>(n));
        return n;
    }
    const int n = SSL_read(m_ssl, buf, sizeof buf);
    if (n > 0) {
        m_in.append(buf, static_cast<std::size_t>(n));
        return n;
    }
    const int e = SSL_get_error(m_ssl, n);
    if (e == SSL_ERROR_ZERO_RETURN) return 0;
    m_wantWrite = e == SSL_ERROR_WANT_WRITE;
    errno = e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE ? EAGAIN : EIO;
    return -1;
}

HttpConnection::Progress HttpConnection::advance()
{
    if (m_failed) return Progress::Closed;
    if (m_ssl && !m_handshakeDone) {
        const int r = SSL_accept(m_ssl);
        if (r != 1) {
            const int e = SSL_get_error(m_ssl, r);
            if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) return Progress::Closed;
            m_wantWrite = e == SSL_ERROR_WANT_WRITE;
            return Progress::Waiting;
        }
        m_handshakeDone = true;
    }
    m_wantWrite = false;
    for (;;) {
        if (headComplete()) return Progress::Ready;
        if (m_in.size() - m_inPos > kMaxHeadBytes) return Progress::Closed;
        const ssize_t n = fill();
        if (n == 0) return Progress::Closed;
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? Progress::Waiting : Progress::Closed;
    }
}

bool HttpConnection::waitFor(short events) const
{
    for (;;) {
        const std::uint64_t now = monotonicNs();
        if (now >= deadlineNs || (m_stop && *m_stop)) return false;
        pollfd p { m_fd.get(), events, 0 };
        const auto ms = static_cast<int>(std::min<std::uint64_t>((deadlineNs - now) / 1'000'000 + 1, 100));
        const int n = ::poll(&p, 1, ms);
        if (n > 0) return true;
        if (n < 0 && errno != EINTR) return false;
    }
}

bool HttpConnection::is_readable() const
{
    if (m_inPos < m_in.size() || (m_ssl && SSL_pending(m_ssl) > 0)) return true;
    return waitFor(POLLIN);
}

bool HttpConnection::is_writable() const
{
    return waitFor(POLLOUT);
}

ssize_t HttpConnection::read(char* ptr, size_t size)
{
    while (m_inPos == m_in.size()) {
        const ssize_t n = fill();
        if (n == 0) return 0;
        if (n > 0) break;
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return -1;
        if (!waitFor(static_cast<short>(m_wantWrite ? POLLOUT : POLLIN))) return -1; // the step's deadline passed
    }
    const std::size_t n = std::min(size, m_in.size() - m_inPos);
    std::copy_n(m_in.data() + m_inPos, n, ptr);
    m_inPos += n;
    return static_cast<ssize_t>(n);
}

ssize_t HttpConnection::write(const char* ptr, size_t size)
{
    std::size_t done = 0;
    while (done < size) {
        ssize_t n = 0;
        short waitEvents = POLLOUT;
        if (m_ssl) {
            const int r = SSL_write(m_ssl, ptr + done, static_cast<int>(std::min<std::size_t>(size - done, 1u << 20)));
            if (r > 0) {
                n = r;
            } else {
                const int e = SSL_get_error(m_ssl, r);
                if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) return -1;
                waitEvents = static_cast<short>(e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT);
                n = -1;
                errno = EAGAIN;
            }
        } else {
            n = ::send(m_fd.get(), ptr + done, size - done, MSG_NOSIGNAL);
        }
        if (n > 0) {
            done += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return -1;
        if (!waitFor(waitEvents)) return -1; // the client does not read: the step's deadline passed
    }
    return static_cast<ssize_t>(size);
}

void HttpConnection::get_remote_ip_and_port(std::string& ip, int& port) const
{
    sockaddr_storage a {};
    socklen_t len = sizeof a;
    port = 0;
    if (::getpeername(m_fd.get(), reinterpret_cast<sockaddr*>(&a), &len) == 0) addressOf(a, ip, port);
}

void HttpConnection::get_local_ip_and_port(std::string& ip, int& port) const
{
    sockaddr_storage a {};
    socklen_t len = sizeof a;
    port = 0;
    if (::getsockname(m_fd.get(), reinterpret_cast<sockaddr*>(&a), &len) == 0) addressOf(a, ip, port);
}

} // namespace rdt::metrics
