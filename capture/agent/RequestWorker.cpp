// SPDX-License-Identifier: GPL-3.0-or-later
#include "RequestWorker.h"

#include <sys/eventfd.h>
#include <unistd.h>

namespace rdt::agent {

RequestWorker::RequestWorker(std::unique_ptr<RequestHandler> handler)
    : m_handler(std::move(handler))
    , m_engineFd(m_handler->wakeFd())
    , m_done(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC))
{
    m_thread = std::thread([this] { run(); });
}

RequestWorker::~RequestWorker()
{
    end("agent exit");
    if (m_thread.joinable()) m_thread.join();
}

void RequestWorker::wake()
{
    const std::uint64_t one = 1;
    if (m_done) (void)!::write(m_done.get(), &one, sizeof one); // an eventfd add; the count saturates harmlessly
}

void RequestWorker::submit(pb::Request request)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_endReason) return;
        m_queue.push_back(std::move(request));
    }
    m_cv.notify_one();
}

void RequestWorker::takeFinished(std::vector<Outgoing>& out)
{
    if (m_done) {
        std::uint64_t count = 0;
        (void)!::read(m_done.get(), &count, sizeof count); // re-arm; EAGAIN when nothing was signalled
    }
    std::lock_guard lock(m_mutex);
    for (auto& o : m_finished)
        out.push_back(std::move(o));
    m_finished.clear();
}

void RequestWorker::takeIdleEvents(std::vector<Outgoing>& out)
{
    std::unique_lock handler(m_handlerMutex, std::try_to_lock);
    if (!handler.owns_lock()) return; // a command runs: its answer carries the events
    {
        std::lock_guard lock(m_mutex);
        if (m_ended) return;
    }
    m_handler->takeEvents(out);
}

bool RequestWorker::busy() const
{
    std::lock_guard lock(m_mutex);
    return m_running || !m_queue.empty() || !m_finished.empty();
}

void RequestWorker::end(const std::string& why)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_endReason) return;
        m_endReason = why;
        m_queue.clear();
    }
    m_handler->cancel();
    m_cv.notify_one();
}

bool RequestWorker::ended() const
{
    std::lock_guard lock(m_mutex);
    return m_ended;
}

void RequestWorker::run()
{
    for (;;) {
        pb::Request request;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [this] { return !m_queue.empty() || m_endReason; });
            if (m_endReason) break;
            request = std::move(m_queue.front());
            m_queue.pop_front();
            m_running = true;
        }
        std::vector<Outgoing> produced;
        {
            std::lock_guard handler(m_handlerMutex);
            pb::Envelope answer;
            auto* response = answer.mutable_response();
            response->set_id(request.id());
            m_handler->handle(request, *response);
            // Events the command produced (a poll's sample batch) go out before its response, so a client that
            // waits for the response has them too.
            m_handler->takeEvents(produced);
            produced.emplace_back(std::move(answer));
        }
        {
            std::lock_guard lock(m_mutex);
            m_running = false;
            if (!m_endReason)
                for (auto& o : produced)
                    m_finished.push_back(std::move(o));
        }
        wake();
    }
    std::string why;
    {
        std::lock_guard lock(m_mutex);
        why = *m_endReason;
    }
    {
        std::lock_guard handler(m_handlerMutex);
        m_handler->end(why);
    }
    {
        std::lock_guard lock(m_mutex);
        m_ended = true;
    }
    wake();
}

} // namespace rdt::agent
