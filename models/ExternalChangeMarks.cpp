// SPDX-License-Identifier: GPL-3.0-or-later
#include "ExternalChangeMarks.h"

#include "engine/ExternalChangeDetector.h"

#include <QTime>

bool ExternalChangeMarks::add(const rdt::AllocationChanged& change)
{
    if (change.who != rdt::engine::kExternalWho || !change.ok) return false;
    const QString old
        = change.oldValue.empty() ? QStringLiteral("(new group)") : QString::fromStdString(change.oldValue);
    const QString what = change.resource == rdt::engine::kModeResource ? QStringLiteral("mode ") : QString();
    Mark m;
    m.text = QStringLiteral("changed by another program at %1: %2%3 \u2192 %4")
                 .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), what, old,
                     QString::fromStdString(change.newValue));
    m.age.start();
    m_marks[{ change.group, change.resource, change.domain }] = std::move(m);
    return true;
}

QString ExternalChangeMarks::textFor(const std::string& group, const std::string& resource, int domain) const
{
    QStringList out;
    for (const auto& key : { std::make_tuple(group, resource, domain),
             std::make_tuple(group, std::string(rdt::engine::kModeResource), -1) }) {
        const auto it = m_marks.find(key);
        if (it != m_marks.end() && alive(it->second)) out << it->second.text;
    }
    return out.join(QLatin1Char('\n'));
}

int ExternalChangeMarks::count() const
{
    int n = 0;
    for (const auto& [key, m] : m_marks)
        n += alive(m) ? 1 : 0;
    return n;
}
