// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <utility>

/// Runs work on the global thread pool and hands the result back on the context object's thread, dropping it
/// when the context is gone or a newer job started meanwhile (the idea of KDAB/hotspot's src/jobtracker.h).
class JobTracker {
public:
    explicit JobTracker(QObject* context)
        : m_context(context)
    { }

    /// Starts `job()` in the background; `then(result)` runs later on the context's thread if still current.
    template <typename Job, typename Then> void startJob(Job&& job, Then&& then)
    {
        const quint64 id = ++m_generation;
        QPointer<QObject> context = m_context;
        auto* self = this;
        QThreadPool::globalInstance()->start(
            [context, self, id, job = std::forward<Job>(job), then = std::forward<Then>(then)]() mutable {
                auto result = job();
                if (!context) return;
                QMetaObject::invokeMethod(
                    context.data(),
                    [context, self, id, then = std::move(then), result = std::move(result)]() mutable {
                        // The tracker is owned by the context, so it is alive whenever the context is.
                        if (!context || self->m_generation != id) return;
                        then(std::move(result));
                    },
                    Qt::QueuedConnection);
            });
    }

    /// Makes every running job stale (e.g. when the source changes).
    void cancel() { ++m_generation; }
    quint64 generation() const { return m_generation; }

private:
    QPointer<QObject> m_context;
    quint64 m_generation = 0;
};
