// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The GUI's compare mode state: two files, their comparison (capture/compare) and their per-second timelines,
// loaded on a worker thread so a large pair never freezes the window. Swap exchanges A and B without reading
// the files again (the profiles are kept); exportCsv writes the same CSV as `rdtscope-cli diff --csv`.

#include "compare/Compare.h"
#include "compare/Timeline.h"

#include <QObject>
#include <QString>

#include <memory>

class CompareSession : public QObject {
    Q_OBJECT
public:
    explicit CompareSession(QObject* parent = nullptr);
    ~CompareSession() override;

    /// Starts loading; loaded() follows. A load still running is superseded (its result is dropped).
    void load(const QString& pathA, const QString& pathB, const rdt::compare::CompareRequest& options = {});
    bool loading() const { return m_loading; }
    /// Blocks until no load runs (tests, shutdown).
    void waitForLoad();

    bool hasResult() const { return m_hasResult; }
    const rdt::compare::Comparison& comparison() const { return m_comparison; }
    const rdt::compare::Timeline& timelineA() const { return m_timelineA; }
    const rdt::compare::Timeline& timelineB() const { return m_timelineB; }

    /// Exchanges A and B (rows, mismatches and timelines); changed() follows.
    void swap();
    /// Writes the diff as CSV (capture/compare/CompareFormat.h); false with *error on failure.
    bool exportCsv(const QString& path, QString* error = nullptr) const;

Q_SIGNALS:
    void loaded(bool ok, const QString& message);
    void changed();

private:
    struct Pending;
    void finish(quint64 generation);

    rdt::compare::Comparison m_comparison;
    rdt::compare::Timeline m_timelineA, m_timelineB;
    rdt::compare::CompareOptions m_options;
    bool m_hasResult = false;
    bool m_loading = false;
    quint64 m_generation = 0;
    std::shared_ptr<Pending> m_pending;
    class QThreadPool* m_pool;
};
