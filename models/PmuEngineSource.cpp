// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuEngineSource.h"

#include "engine/CaptureService.h"

void PmuEngineSource::setFactory(Factory factory)
{
    m_engine.reset();
    m_factory = std::move(factory);
}

std::shared_ptr<rdt::engine::Engine> PmuEngineSource::acquire(QString* error)
{
    if (!m_engine && m_factory) {
        auto engine = m_factory();
        if (!engine) {
            if (error) *error = QString::fromStdString(engine.error().toString());
            return nullptr;
        }
        m_engine = std::move(*engine);
    }
    if (!m_engine) {
        rdt::engine::ServiceOptions options;
        options.openRdt = false; // PMU captures only: the RDT source is the main window's
        options.who = "gui";
        auto service = rdt::engine::CaptureService::open(options);
        if (!service) {
            if (error) *error = QString::fromStdString(service.error().toString());
            return nullptr;
        }
        m_engine = std::move(*service);
    }
    return m_engine;
}
