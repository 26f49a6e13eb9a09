// SPDX-License-Identifier: GPL-3.0-or-later
#include "BlameRun.h"

#include "blame/BlameRecording.h"
#include "blame/Containment.h"
#include "engine/Engine.h"

#include <QMetaObject>

#include <cerrno>

BlameRun::BlameRun(QObject* parent)
    : QObject(parent)
{ }

BlameRun::~BlameRun()
{
    m_stop = true;
    if (m_thread.joinable()) m_thread.join();
}

void BlameRun::setEngine(rdt::engine::Engine* engine)
{
    if (!isRunning()) m_engine = engine;
}

void BlameRun::post(std::function<void()> f)
{
    QMetaObject::invokeMethod(this, std::move(f), Qt::QueuedConnection);
}

void BlameRun::stop()
{
    m_stop = true;
}

void BlameRun::stopAndWait()
{
    m_stop = true;
    if (m_thread.joinable()) m_thread.join();
}

bool BlameRun::start(const rdt::blame::BlameSettings& settings)
{
    if (!m_engine || isRunning()) return false;
    m_stop = false;
    // Blame polls and drains the engine itself: the background sampler would take its batches.
    m_engine->stopSampling();
    Q_EMIT started();
    m_thread = std::thread([this, settings] {
        const auto marker = [this](std::uint64_t t, const std::string& text) {
            post([this, t, text = QString::fromStdString(text)] {
                Q_EMIT this->marker(t, QString::fromLatin1(rdt::blame::kBlameMarkerKind), text);
            });
        };
        rdt::blame::BlameHooks hooks;
        hooks.stopRequested = [this] { return m_stop.load(); };
        hooks.onPhase = [this, marker](const std::string& text, std::uint64_t t) {
            marker(t, rdt::blame::phaseMarker(text));
            post([this, t = QString::fromStdString(text)] { Q_EMIT phase(t); });
        };
        hooks.onProbe = [this, marker](const rdt::blame::ProbeResult& p, std::uint64_t t) {
            marker(t, rdt::blame::probeMarker(p));
            post([this, p] { Q_EMIT probed(p); });
        };
        auto r = rdt::blame::runBlame(*m_engine, settings, hooks);
        if (r) {
            const std::uint64_t t = m_engine->nowNs();
            for (const auto& line : rdt::blame::blameMarkers(*r))
                marker(t, line);
            marker(t, rdt::blame::endMarker(*r));
        } else {
            marker(m_engine->nowNs(), "blame failed: " + r.error().toString());
        }
        if (r)
            post([this, result = *r] { Q_EMIT done(result); });
        else
            post([this, why = QString::fromStdString(r.error().toString())] { Q_EMIT failed(why); });
        post([this] {
            if (m_thread.joinable()) m_thread.join();
            (void)m_engine->startSampling();
            Q_EMIT finished();
        });
    });
    return true;
}

rdt::engine::CommandResult BlameRun::undoContainment(const rdt::blame::Containment& containment)
{
    if (!m_engine || isRunning())
        return rdt::engine::CommandResult::failure(rdt::errnoError(EBUSY, "blame is running or there is no engine"));
    return rdt::blame::undoContainment(*m_engine, containment);
}
