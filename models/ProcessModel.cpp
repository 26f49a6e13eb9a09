// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProcessModel.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>

namespace {
QByteArray readSmall(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.read(4096);
}

/// uid -> user name from /etc/passwd (read once per scan; the picker filters by user).
QHash<uint, QString> userNames()
{
    QHash<uint, QString> names;
    QFile f(QStringLiteral("/etc/passwd"));
    if (!f.open(QIODevice::ReadOnly)) return names;
    const QByteArray passwd = f.readAll();
    for (const QByteArray& line : passwd.split('\n')) {
        const auto fields = line.split(':');
        if (fields.size() > 2) names.insert(fields[2].toUInt(), QString::fromLocal8Bit(fields[0]));
    }
    return names;
}
} // namespace

ProcessModel::ProcessModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

QList<ProcessInfo> ProcessModel::scan(const QString& procRoot)
{
    QList<ProcessInfo> out;
    const auto users = userNames();
    const QDir dir(procRoot);
    const auto entries = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& entry : entries) {
        bool isPid = false;
        const int pid = entry.toInt(&isPid);
        if (!isPid || pid <= 0) continue;
        const QString base = procRoot + QLatin1Char('/') + entry;
        ProcessInfo p;
        p.pid = pid;
        p.name = QString::fromLocal8Bit(readSmall(base + QStringLiteral("/comm"))).trimmed();
        QByteArray cmd = readSmall(base + QStringLiteral("/cmdline"));
        cmd.replace('\0', ' ');
        p.command = QString::fromLocal8Bit(cmd).trimmed();
        // The Uid: line of status (real uid first); the directory owner is the fallback.
        const QByteArray status = readSmall(base + QStringLiteral("/status"));
        uint uid = QFileInfo(base).ownerId();
        for (const QByteArray& line : status.split('\n')) {
            if (line.startsWith("Uid:")) {
                const auto fields = line.mid(4).simplified().split(' ');
                if (!fields.isEmpty()) uid = fields[0].toUInt();
            }
        }
        p.user = users.value(uid, QString::number(uid));
        if (p.name.isEmpty() && p.command.isEmpty()) continue; // exited while we looked
        out.append(p);
    }
    std::sort(out.begin(), out.end(), [](const ProcessInfo& a, const ProcessInfo& b) { return a.pid < b.pid; });
    return out;
}

void ProcessModel::refresh()
{
    const QString root = m_root;
    m_jobs.startJob([root] { return scan(root); },
        [this](QList<ProcessInfo> processes) {
            setProcesses(std::move(processes));
            Q_EMIT refreshed();
        });
}

void ProcessModel::setProcesses(QList<ProcessInfo> processes)
{
    beginResetModel();
    m_processes = std::move(processes);
    endResetModel();
}

int ProcessModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_processes.size());
}

int ProcessModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProcessModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_processes.size()) return {};
    const auto& p = m_processes[index.row()];
    if (role == PidRole) return p.pid;
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case PidColumn:
            return role == Qt::DisplayRole ? QVariant(p.pid) : QVariant(p.command);
        case UserColumn:
            return p.user;
        case NameColumn:
            return p.name;
        case CommandColumn:
            return p.command;
        default:
            return {};
        }
    }
    return {};
}

QVariant ProcessModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case PidColumn:
        return tr("PID");
    case UserColumn:
        return tr("User");
    case NameColumn:
        return tr("Name");
    case CommandColumn:
        return tr("Command");
    default:
        return {};
    }
}
