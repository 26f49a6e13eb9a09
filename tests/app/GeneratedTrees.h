// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Resctrl trees larger than any fixture, written by the GUI's fit tests (issue #47): a many-core part's 40 L2
// domains x 16 CLOS, and 128 monitor groups whose long names share their beginnings and ends (as container
// runtimes name them). Written in the kernel's format (Documentation/filesystems/resctrl.rst).

#include "FixtureTree.h"

#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>

inline bool writeTreeFile(const QString& path, const QString& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text.toUtf8() + '\n') >= 0;
}

/// A tree with only L2 CAT: `domains` L2 domains (one per core pair), `closids` CLOS, 15 groups g01.. beside the
/// default group, every mask 16 bits.
inline bool writeManyL2DomainsTree(const QString& root, int domains = 40, int closids = 16)
{
    QStringList masks, sizes, usage;
    for (int d = 0; d < domains; ++d) {
        masks << QStringLiteral("%1=ffff").arg(d);
        sizes << QStringLiteral("%1=2097152").arg(d);
        usage << QStringLiteral("%1=SSSSSSSSSSSSSSSS").arg(d);
    }
    const QString cpus = QStringLiteral("0-%1").arg(2 * domains - 1);
    auto group = [&](const QString& dir, bool isRoot) {
        return QDir().mkpath(dir) && writeTreeFile(dir + "/schemata", "L2:" + masks.join(';'))
            && writeTreeFile(dir + "/size", "L2:" + sizes.join(';'))
            && writeTreeFile(dir + "/cpus_list", isRoot ? cpus : QString())
            && writeTreeFile(dir + "/cpus", isRoot ? QStringLiteral("ff,ffffffff,ffffffff") : QStringLiteral("0"))
            && writeTreeFile(dir + "/mode", QStringLiteral("shareable"))
            && writeTreeFile(dir + "/tasks", isRoot ? QStringLiteral("1") : QString());
    };
    if (!group(root, true)) return false;
    const QString info = root + "/info/L2";
    if (!QDir().mkpath(info) || !writeTreeFile(info + "/cbm_mask", QStringLiteral("ffff"))
        || !writeTreeFile(info + "/min_cbm_bits", QStringLiteral("1"))
        || !writeTreeFile(info + "/num_closids", QString::number(closids))
        || !writeTreeFile(info + "/shareable_bits", QStringLiteral("0"))
        || !writeTreeFile(info + "/bit_usage", usage.join(';'))
        || !writeTreeFile(root + "/info/last_cmd_status", QStringLiteral("ok")))
        return false;
    for (int g = 1; g < closids; ++g)
        if (!group(root + QStringLiteral("/g%1").arg(g, 2, 10, QLatin1Char('0')), false)) return false;
    return true;
}

/// The 4-domain fixture tree with `count` more monitor groups of the default group, named like a container
/// runtime's ("kubepods-burstable-pod0a1b...-NNN.scope"): long, alike at both ends.
inline bool writeManyMonitorGroupsTree(const QString& root, int count = 128)
{
    if (!copyFixtureTree(QStringLiteral(RDTSCOPE_TEST_DATA "/resctrl/resctrl.full"), root)) return false;
    for (int g = 0; g < count; ++g) {
        const QString dir = root
            + QStringLiteral("/mon_groups/kubepods-burstable-pod7f3c%1-workload.scope").arg(g, 3, 10, QLatin1Char('0'));
        if (!QDir().mkpath(dir) || !writeTreeFile(dir + "/tasks", QString()) || !writeTreeFile(dir + "/cpus_list", {})
            || !writeTreeFile(dir + "/cpus", QStringLiteral("0")))
            return false;
        for (int d = 0; d < 4; ++d) {
            const QString mon = dir + QStringLiteral("/mon_data/mon_L3_%1").arg(d, 2, 10, QLatin1Char('0'));
            if (!QDir().mkpath(mon) || !writeTreeFile(mon + "/llc_occupancy", QString::number(65536 * (g + 1)))
                || !writeTreeFile(mon + "/mbm_total_bytes", QString::number(1000 * g))
                || !writeTreeFile(mon + "/mbm_local_bytes", QString::number(500 * g)))
                return false;
        }
    }
    return true;
}
