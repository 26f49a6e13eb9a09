// SPDX-License-Identifier: GPL-3.0-or-later
#include "AllocationCommands.h"
#include "core/Text.h"
#include "rdt/GroupNames.h"

#include "AllocationModel.h"
#include "core/Time.h"

#include <QObject>

#include <cstdio>

namespace {
std::string valueText(std::uint64_t v, bool cache)
{
    if (!cache) return std::to_string(v);
    return rdt::hexDigits(v);
}

QString describe(const std::vector<AllocationEdit>& edits)
{
    if (edits.size() != 1) return QObject::tr("Change %n allocation(s)", nullptr, static_cast<int>(edits.size()));
    const AllocationEdit& e = edits.front();
    const QString group = QString::fromStdString(rdt::displayGroup(e.group));
    return QObject::tr("Set %1 %2:%3=%4")
        .arg(group, QString::fromStdString(e.schema))
        .arg(e.domain)
        .arg(QString::fromStdString(valueText(e.newValue, e.cache)));
}
} // namespace

AllocationEditCommand::AllocationEditCommand(
    AllocationModel* model, std::vector<AllocationEdit> edits, QUndoCommand* parent)
    : QUndoCommand(describe(edits), parent)
    , m_model(model)
    , m_edits(std::move(edits))
{ }

void AllocationEditCommand::redo()
{
    if (!writeAll(true)) setObsolete(true);
}

void AllocationEditCommand::undo()
{
    if (!writeAll(false)) setObsolete(true);
}

bool AllocationEditCommand::writeAll(bool forward)
{
    AllocationWriter* w = m_model->writer();
    std::size_t done = 0;
    std::string failure;
    for (; done < m_edits.size(); ++done) {
        AllocationEdit& e = m_edits[done];
        const std::uint64_t target = forward ? e.newValue : e.oldValue;
        const std::uint64_t before = forward ? e.oldValue : e.newValue;
        rdt::AllocationChanged ev { rdt::monotonicNs(), "gui", e.group, e.schema, e.domain, valueText(before, e.cache),
            valueText(target, e.cache), false, {} };
        std::uint64_t readBack = 0;
        if (!w) {
            failure = "no allocation backend is connected";
        } else if (e.cache) {
            auto r = w->writeCbm(e.group, e.schema, e.domain, target);
            if (r)
                readBack = *r;
            else
                failure = r.error().message;
        } else {
            auto r = w->writeBandwidth(e.group, e.schema, e.domain, static_cast<unsigned>(target));
            if (r)
                readBack = *r;
            else
                failure = r.error().message;
        }
        if (!failure.empty()) {
            ev.message = failure;
            m_model->notifyWritten(ev);
            break;
        }
        // What the backend holds wins (MB is rounded up to bandwidth_gran): keep it for undo/redo and display.
        if (forward)
            e.newValue = readBack;
        else
            e.oldValue = readBack;
        ev.newValue = valueText(readBack, e.cache);
        ev.ok = true;
        m_model->storeValue(e.group, e.schema, e.domain, readBack, e.cache);
        m_model->notifyWritten(ev);
    }
    if (failure.empty()) return true;
    // Roll back what this pass already wrote, newest first, then show the reason on the refused row.
    for (std::size_t i = done; i-- > 0;) {
        const AllocationEdit& e = m_edits[i];
        const std::uint64_t back = forward ? e.oldValue : e.newValue;
        bool ok = false;
        if (e.cache) {
            auto r = w->writeCbm(e.group, e.schema, e.domain, back);
            ok = r.ok();
        } else {
            auto r = w->writeBandwidth(e.group, e.schema, e.domain, static_cast<unsigned>(back));
            ok = r.ok();
        }
        if (ok) m_model->storeValue(e.group, e.schema, e.domain, back, e.cache);
    }
    const AllocationEdit& bad = m_edits[done];
    m_model->reportRejection(bad.group, bad.schema, bad.domain, QString::fromStdString(failure));
    return false;
}
