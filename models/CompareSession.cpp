// SPDX-License-Identifier: GPL-3.0-or-later
#include "CompareSession.h"

#include "compare/CompareFormat.h"

#include <QFile>
#include <QThreadPool>

#include <mutex>
#include <optional>

using namespace rdt::compare;

/// What the worker leaves for the GUI thread.
struct CompareSession::Pending {
    std::mutex mutex;
    quint64 generation = 0;
    std::optional<rdt::Result<Comparison>> comparison;
    Timeline timelineA, timelineB;
};

CompareSession::CompareSession(QObject* parent)
    : QObject(parent)
    , m_pending(std::make_shared<Pending>())
    , m_pool(new QThreadPool(this))
{
    m_pool->setMaxThreadCount(1);
}

CompareSession::~CompareSession()
{
    m_pool->waitForDone();
}

void CompareSession::load(const QString& pathA, const QString& pathB, const CompareRequest& options)
{
    CompareRequest req = options;
    req.pathA = pathA.toStdString();
    req.pathB = pathB.toStdString();
    m_options = req.options;
    m_loading = true;
    const quint64 generation = ++m_generation;
    m_pool->start([this, req, generation, pending = m_pending] {
        auto result = compareFiles(req);
        // A timeline that cannot be read leaves that side's plot empty; the comparison says why.
        auto ta = loadTimeline(req.pathA);
        auto tb = loadTimeline(req.pathB);
        {
            std::lock_guard lock(pending->mutex);
            pending->generation = generation;
            pending->comparison = std::move(result);
            pending->timelineA = ta ? std::move(ta).value() : Timeline {};
            pending->timelineB = tb ? std::move(tb).value() : Timeline {};
        }
        QMetaObject::invokeMethod(
            this, [this, generation] { finish(generation); }, Qt::QueuedConnection);
    });
}

void CompareSession::finish(quint64 generation)
{
    std::optional<rdt::Result<Comparison>> result;
    {
        std::lock_guard lock(m_pending->mutex);
        if (m_pending->generation != generation || !m_pending->comparison) return; // superseded or taken
        result = std::move(m_pending->comparison);
        m_pending->comparison.reset();
        if (generation == m_generation) {
            m_timelineA = std::move(m_pending->timelineA);
            m_timelineB = std::move(m_pending->timelineB);
        }
    }
    if (generation != m_generation) return;
    m_loading = false;
    if (!*result) {
        Q_EMIT loaded(false, QString::fromStdString(result->error().toString()));
        return;
    }
    m_comparison = std::move(*result).value();
    m_hasResult = true;
    Q_EMIT loaded(true, {});
    Q_EMIT changed();
}

void CompareSession::waitForLoad()
{
    m_pool->waitForDone();
    finish(m_generation);
}

void CompareSession::swap()
{
    if (!m_hasResult) return;
    m_comparison = compareProfiles(std::move(m_comparison.b), std::move(m_comparison.a), m_options);
    std::swap(m_timelineA, m_timelineB);
    Q_EMIT changed();
}

bool CompareSession::exportCsv(const QString& path, QString* error) const
{
    QFile f(path);
    const std::string csv = formatCsv(m_comparison);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || f.write(csv.data(), static_cast<qint64>(csv.size())) != static_cast<qint64>(csv.size()) || !f.flush()) {
        if (error) *error = tr("Cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}
