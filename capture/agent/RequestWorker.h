// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RequestHandler.h"
#include "core/UniqueFd.h"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace rdt::agent {

/// One client's commands, run in order on a thread of the client's own, so that the agent's loop never runs a
/// command inline: while one client's command works (a simulation advanced, a PMU pump, a polkit check), the loop
/// keeps answering every other client and sending heartbeats (docs/PROTOCOL.md "Work bounds"). The handler is
/// touched by one thread at a time: the worker while a command runs, the loop (takeIdleEvents) only between them.
class RequestWorker {
public:
    explicit RequestWorker(std::unique_ptr<RequestHandler> handler);
    /// Cancels what runs, ends the handler if end() was not asked for, and joins the thread.
    ~RequestWorker();
    RequestWorker(const RequestWorker&) = delete;
    RequestWorker& operator=(const RequestWorker&) = delete;

    /// Queues a request (loop thread); its response comes out of takeFinished().
    void submit(pb::Request request);
    /// Moves what finished commands produced to `out`: each command's events, then its response, in order.
    void takeFinished(std::vector<Outgoing>& out);
    /// The engine's background events (sampler batches) when no command runs; nothing while one does (they then
    /// come out with that command's answer).
    void takeIdleEvents(std::vector<Outgoing>& out);
    /// A command is queued or running, or answers wait in takeFinished().
    bool busy() const;
    bool streaming() const { return m_handler->streaming(); }
    /// Readable when a command finished (an eventfd; takeFinished() re-arms it).
    int doneFd() const { return m_done.get(); }
    /// The handler's own wake-up for background events (RequestHandler::wakeFd).
    int engineFd() const { return m_engineFd; }
    /// Ends the session's work without waiting: queued commands are dropped, the running one is cancelled at its
    /// next slice, then the handler's end(why) runs on the worker thread (restores included).
    void end(const std::string& why);
    /// end() has completed: destroying the worker joins at once.
    bool ended() const;

private:
    void run();
    void wake();

    std::unique_ptr<RequestHandler> m_handler;
    const int m_engineFd;
    UniqueFd m_done;
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<pb::Request> m_queue;
    std::vector<Outgoing> m_finished;
    bool m_running = false; ///< a command is in handle()
    std::optional<std::string> m_endReason;
    bool m_ended = false;
    std::mutex m_handlerMutex; ///< held by whoever calls into the handler (worker, or the loop between commands)
    std::thread m_thread;
};

} // namespace rdt::agent
