// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "rdt/Sample.h"

#include <QElapsedTimer>
#include <QString>

#include <map>
#include <string>
#include <tuple>

/// The allocation changes another program made (AllocationChanged with who = "external", decided by the engine's
/// ExternalChangeDetector) that the heatmap marks on the changed group's row: one text per (group, resource,
/// domain), "changed by another program at 14:52:03: fffff -> 3". A mark stays until the user acknowledges it or
/// kKeepSeconds have passed; a newer change of the same value replaces it. A mode change (resource "mode", domain
/// -1) marks every row of its group in every domain.
class ExternalChangeMarks {
public:
    static constexpr int kKeepSeconds = 120;

    /// Keeps a mark for an external change; false (nothing kept) for any other change.
    bool add(const rdt::AllocationChanged& change);
    /// The marks on one row's value and its group's mode, one per line ("" when none or all expired).
    QString textFor(const std::string& group, const std::string& resource, int domain) const;
    /// Marks not yet expired.
    int count() const;
    /// The user saw them: every mark goes.
    void clear() { m_marks.clear(); }

private:
    struct Mark {
        QString text;
        QElapsedTimer age;
    };
    bool alive(const Mark& m) const { return m.age.isValid() && m.age.elapsed() < kKeepSeconds * 1000LL; }
    std::map<std::tuple<std::string, std::string, int>, Mark> m_marks;
};
