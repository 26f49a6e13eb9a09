// SPDX-License-Identifier: GPL-3.0-or-later
#include "CoreAssignmentSource.h"

#include "engine/Engine.h"

CoreAssignmentSource::CoreAssignmentSource(EngineGetter engine, QObject* parent)
    : QObject(parent)
    , m_engine(std::move(engine))
    , m_cores(new CoreAssignmentModel(CoreAssignmentModel::Kind::Cores, this))
    , m_classes(new CoreAssignmentModel(CoreAssignmentModel::Kind::Classes, this))
{ }

void CoreAssignmentSource::refresh()
{
    rdt::engine::Engine* engine = m_engine ? m_engine() : nullptr;
    rdt::engine::CoreAssignments table;
    if (!engine) {
        m_unavailable = tr("No live RDT source: a replayed recording or a file has no current CPU assignment.");
    } else if (!engine->hasRdt()) {
        m_unavailable = tr("This source has no RDT groups.");
    } else {
        const auto machine = engine->machine();
        const auto snapshot = engine->snapshot();
        if (!machine) {
            m_unavailable = QString::fromStdString(machine.error().toString());
        } else if (!snapshot.result.ok) {
            m_unavailable = QString::fromStdString(snapshot.result.toString());
        } else {
            m_unavailable.clear();
            table = rdt::engine::coreAssignments(snapshot, machine->capabilities);
        }
    }
    m_cores->setAssignments(table);
    m_classes->setAssignments(table);
    Q_EMIT refreshed();
}
