// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reads the per-core table (rdt::engine::coreAssignments) from the window's live engine when asked, and feeds the
// cores and classes models. The engine comes from a getter, so the table follows File > Switch source; without a live
// engine (a replay, a file) it says why instead of showing an empty table.

#include "CoreAssignmentModel.h"

#include <QObject>
#include <QString>

#include <functional>

namespace rdt::engine {
class Engine;
}

class CoreAssignmentSource : public QObject {
    Q_OBJECT
public:
    using EngineGetter = std::function<rdt::engine::Engine*()>;
    explicit CoreAssignmentSource(EngineGetter engine, QObject* parent = nullptr);

    /// Reads the snapshot and the capabilities now (GUI thread; a remote engine answers over its connection).
    void refresh();
    CoreAssignmentModel* cores() const { return m_cores; }
    CoreAssignmentModel* classes() const { return m_classes; }
    /// Why there is no table ("" when there is one).
    QString unavailable() const { return m_unavailable; }

Q_SIGNALS:
    void refreshed();

private:
    EngineGetter m_engine;
    CoreAssignmentModel* m_cores;
    CoreAssignmentModel* m_classes;
    QString m_unavailable;
};
