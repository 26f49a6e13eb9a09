// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/CoreTypeView.h"
#include "core/IdList.h"
#include "platform/CpuidDump.h"
#include "platform/LiveCpuid.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <pthread.h>
#include <sched.h>
#include <thread>

namespace rdt {

namespace {

/// Adds a CPU to the view of its core type (in order of first appearance).
void addToItsCoreType(std::vector<CoreTypeView>& views, unsigned cpu, CpuFeatures f)
{
    const std::string type = f.hybrid.coreTypeKnown ? f.hybrid.coreTypeName() : "unknown";
    auto it = std::find_if(views.begin(), views.end(), [&](const CoreTypeView& v) { return v.coreType == type; });
    if (it == views.end())
        views.push_back({ type, { cpu }, std::move(f) });
    else
        it->cpus.push_back(cpu);
}

/// This machine's CPUID as CPU `cpu` answers it, from a thread pinned there; nullopt when it cannot run there.
std::optional<CpuidTable> cpuidOnCpu(unsigned cpu)
{
    std::optional<CpuidTable> table;
    std::thread pinned([&] {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        if (::pthread_setaffinity_np(::pthread_self(), sizeof one, &one) != 0) return;
        LiveCpuid live;
        table = snapshotCpuid(live);
    });
    pinned.join();
    return table;
}

} // namespace

std::vector<CoreTypeView> coreTypeViews(const std::string& dumpPath, unsigned maxCpus)
{
    std::vector<CoreTypeView> views;
    for (unsigned cpu = 0; cpu < maxCpus; ++cpu) {
        auto table = loadCpuidDump(dumpPath, cpu);
        if (!table) break; // past the last CPU
        auto f = decodeCpuFeatures(*table);
        if (views.empty() && !f.hybrid.hybrid) return {};
        addToItsCoreType(views, cpu, std::move(f));
    }
    return views;
}

std::vector<std::pair<unsigned, CpuidTable>> liveCpuidPerCpu(bool (*keepGoing)(const CpuidTable& first))
{
    std::vector<std::pair<unsigned, CpuidTable>> tables;
    if (!LiveCpuid::instructionAvailable()) return tables;
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0) return tables;
    for (unsigned cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (!CPU_ISSET(cpu, &allowed)) continue;
        auto table = cpuidOnCpu(cpu);
        if (!table) continue; // went offline meanwhile
        tables.emplace_back(cpu, std::move(*table));
        if (tables.size() == 1 && keepGoing && !keepGoing(tables.front().second)) break;
    }
    return tables;
}

std::vector<CoreTypeView> liveCoreTypeViews()
{
    // A part that is not hybrid needs no CPU but the first.
    auto tables = liveCpuidPerCpu([](const CpuidTable& first) {
        CpuidTable copy = first;
        return decodeCpuFeatures(copy).hybrid.hybrid;
    });
    std::vector<CoreTypeView> views;
    for (auto& [cpu, table] : tables) {
        auto f = decodeCpuFeatures(table);
        if (views.empty() && !f.hybrid.hybrid) return {};
        addToItsCoreType(views, cpu, std::move(f));
    }
    return views;
}

std::vector<CoreTypeView> coreTypeViewsOf(const std::string& dumpPath)
{
    return dumpPath.empty() ? liveCoreTypeViews() : coreTypeViews(dumpPath);
}

void appendCoreTypeLines(const std::vector<CoreTypeView>& views, CapabilityReport& report)
{
    // Before the Warnings group, so the text keeps warnings last.
    auto at = std::find_if(report.lines.begin(), report.lines.end(),
        [](const CapabilityLine& l) { return l.group == capgroup::Warnings; });
    std::vector<CapabilityLine> lines;
    for (const auto& v : views) {
        const auto& p = v.features.perfmon;
        const auto& e = v.features.perfmonExt;
        // Each type's own counts: the true view of leaf 23H where it exists, else what 0AH reports on that type.
        const unsigned gp = e.countersKnown ? static_cast<unsigned>(std::popcount(e.gpBitmap)) : p.gpCounters;
        const unsigned fixed = e.countersKnown ? static_cast<unsigned>(std::popcount(e.fixedBitmap)) : p.fixedCounters;
        const bool topdown = (e.eventsKnown && ((e.eventBitmap >> 7) & 1U) != 0)
            || (p.eventVectorLength > 7 && ((p.eventsUnavailable >> 7) & 1U) == 0);
        std::vector<unsigned> ids(v.cpus.begin(), v.cpus.end());
        CapabilityLine l;
        l.group = capgroup::CoreTypes;
        l.name = v.coreType;
        l.value = std::to_string(v.cpus.size()) + (v.cpus.size() == 1 ? " CPU (" : " CPUs (") + formatIdList(ids)
            + "): " + std::to_string(gp) + " general-purpose, " + std::to_string(fixed)
            + " fixed counters, Topdown slots " + (topdown ? "yes" : "no") + ", TMA slots per cycle "
            + (e.supported ? std::to_string(e.tmaSlotsPerCycle) : std::string("n/a (no leaf 23H)"));
        l.present = true;
        l.origin = e.countersKnown
            ? "CPUID.(EAX=1AH):EAX[31:24], CPUID.(EAX=23H,ECX=0,1,3) of CPU #" + std::to_string(v.cpus.front())
            : "CPUID.(EAX=1AH):EAX[31:24], CPUID.(EAX=0AH) of CPU #" + std::to_string(v.cpus.front());
        l.sdmSection = "22.2.9";
        lines.push_back(std::move(l));
    }
    report.lines.insert(at, lines.begin(), lines.end());
}

} // namespace rdt
