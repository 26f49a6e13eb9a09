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

AllocationEditCommand* AllocationEditCommand::together(AllocationModel* model, std::vector<AllocationEdit> edits)
{
    auto* c = new AllocationEditCommand(model, std::move(edits));
    c->m_together = true;
    return c;
}

void AllocationEditCommand::redo()
{
    if (!(m_together ? writeTogether(true) : writeAll(true))) setObsolete(true);
}

void AllocationEditCommand::undo()
{
    if (!(m_together ? writeTogether(false) : writeAll(false))) setObsolete(true);
}

bool AllocationEditCommand::writeTogether(bool forward)
{
    if (m_edits.empty()) return true;
    AllocationWriter* w = m_model->writer();
    const AllocationEdit& first = m_edits.front();
    std::vector<std::pair<std::string, unsigned>> values;
    for (const auto& e : m_edits)
        values.emplace_back(e.schema, static_cast<unsigned>(forward ? e.newValue : e.oldValue));
    rdt::Result<std::vector<unsigned>> r = w
        ? w->writeBandwidths(first.group, first.domain, values)
        : rdt::Result<std::vector<unsigned>>(rdt::makeError("no allocation backend is connected"));
    const std::string failure = r ? std::string() : r.error().message;
    for (std::size_t i = 0; i < m_edits.size(); ++i) {
        AllocationEdit& e = m_edits[i];
        const std::uint64_t before = forward ? e.oldValue : e.newValue;
        rdt::AllocationChanged ev { rdt::monotonicNs(), "gui", e.group, e.schema, e.domain, valueText(before, false),
            valueText(forward ? e.newValue : e.oldValue, false), r.ok(), failure };
        if (r && i < r->size()) {
            // What the backend holds wins, as for single edits.
            (forward ? e.newValue : e.oldValue) = (*r)[i];
            ev.newValue = valueText((*r)[i], false);
            m_model->storeValue(e.group, e.schema, e.domain, (*r)[i], false);
        }
        m_model->notifyWritten(ev);
    }
    if (r) return true;
    // The engine's transaction wrote nothing (or restored it): the reason goes on every bound of the change.
    for (const auto& e : m_edits)
        m_model->reportRejection(e.group, e.schema, e.domain, QString::fromStdString(failure));
    return false;
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
