// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuData.h"

#include <algorithm>
#include <span>

namespace rdt::pmu {

std::pair<std::uint64_t, std::uint64_t> PmuData::timeSpan() const
{
    std::uint64_t lo = ~std::uint64_t { 0 }, hi = 0;
    auto see = [&](std::uint64_t t) {
        lo = std::min(lo, t);
        hi = std::max(hi, t);
    };
    // Samples are in file order, which is time order per CPU only: look at every one.
    for (const auto& b : branches)
        see(b.time);
    for (const auto& l : loads)
        see(l.time);
    for (const auto& p : tma)
        see(p.time);
    for (const auto& st : stacks)
        see(st.time);
    return hi == 0 && lo == ~std::uint64_t { 0 } ? std::pair<std::uint64_t, std::uint64_t> { 0, 0 }
                                                 : std::pair { lo, hi };
}

namespace {

/// Keeps a sample's callchain as its stack unless a call-stack LBR gives it (the rule CallStackSources counts by).
void keepCallchain(PmuData& data, std::uint64_t time, std::uint32_t pid, std::uint32_t tid, std::uint32_t cpu,
    std::span<const std::uint64_t> callchain, bool lbrCallStack)
{
    if (lbrCallStack || callchain.empty()) return;
    PmuStackSample st { time, pid, tid, cpu, {} };
    callchainFrames(callchain, st.frames);
    if (!st.frames.empty()) data.stacks.push_back(std::move(st));
}

} // namespace

void addSample(PmuData& data, const Sample& s, const EventAttr* attr)
{
    const bool loadLatency = s.has(perf::SampleWeight | perf::SampleWeightStruct) && s.has(perf::SampleDataSrc);
    const bool branchStack = s.has(perf::SampleBranchStack);
    bool callStackMode = data.branchMode == BranchGraph::Mode::CallStack;
    if (branchStack && attr) {
        const auto info = BranchGraph::Info::fromAttr(*attr);
        data.branchMode = info.mode;
        data.branchTypes = info.typesRecorded;
        callStackMode = info.mode == BranchGraph::Mode::CallStack;
    }
    data.stackSources.add(s, branchStack && callStackMode);
    if (s.has(perf::SampleCallchain)) // a reused Sample keeps the values of fields this one lacks
        keepCallchain(data, s.time, s.pid, s.tid, sampleCpu(s), s.callchain, branchStack && callStackMode);
    if (branchStack) { // empty stacks too: their IP still counts as a self sample
        PmuBranchSample b { s.time, s.pid, s.ip, s.branches };
        b.tid = s.tid;
        b.cpu = sampleCpu(s);
        data.branches.push_back(std::move(b));
    } else if (loadLatency) {
        data.loads.push_back(PmuLoadSample { s.time, s.ip, s.addr, s.dataSrc, s.pid,
            static_cast<std::uint32_t>(std::min<std::uint64_t>(s.latency(), 0xffffffffu)) });
    } else {
        ++data.otherSamples;
        ++data.otherFunctions[data.symbols->resolve(s.pid, s.ip).function];
    }
}

void addSampleRecord(PmuData& data, const engine::PmuSampleRecord& s, bool callStackMode)
{
    bool addresses = false;
    for (auto ip : s.callchain)
        addresses = addresses || (!perf::isContextMarker(ip) && ip != 0);
    data.stackSources.add(s.hasBranchStack, callStackMode, addresses, s.userStack);
    keepCallchain(data, s.timeNs, s.pid, s.tid, s.cpu, s.callchain, s.hasBranchStack && callStackMode);
    if (s.hasBranchStack) {
        PmuBranchSample b { s.timeNs, s.pid, s.ip, s.branches };
        b.tid = s.tid;
        b.cpu = s.cpu;
        data.branches.push_back(std::move(b));
    } else if (s.loadLatency) {
        data.loads.push_back(PmuLoadSample { s.timeNs, s.ip, s.addr, s.dataSrc, s.pid, s.latency });
    } else {
        ++data.otherSamples;
        ++data.otherFunctions[data.symbols->resolve(s.pid, s.ip).function];
    }
}

} // namespace rdt::pmu
