// SPDX-License-Identifier: GPL-3.0-or-later
// The checks of `rdtscope-cli selftest` and of tests/simfs test_conformance. Sections cited are those of the kernel's
// Documentation/filesystems/resctrl.rst ("resctrl.rst") and of the Intel SDM Vol. 3B chapter 20 ("SDM"); the effect
// checks follow what the kernel's tools/testing/selftests/resctrl (cmt_test.c, mba_test.c, mbm_test.c) measure.
#include "ResctrlSelftest.h"
#include "core/Text.h"

#include "rdt/Sample.h"
#include "rdt/Schemata.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <map>

namespace rdt::selftest {

namespace {

enum class Needs { Nothing, Write, Effect };

CheckResult pass(std::string detail = {})
{
    return { {}, {}, Verdict::Pass, std::move(detail) };
}
CheckResult fail(std::string why)
{
    return { {}, {}, Verdict::Fail, std::move(why) };
}
CheckResult skip(std::string why)
{
    return { {}, {}, Verdict::Skip, std::move(why) };
}

std::string mib(std::uint64_t bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f MiB", double(bytes) / double(1 << 20));
    return buf;
}

/// SDM 20.19.4.2: a capacity bitmask's set bits must be contiguous (unless the CPU enumerates sparse masks).
bool contiguous(std::uint64_t mask)
{
    if (mask == 0) return false;
    const std::uint64_t shifted = mask >> std::countr_zero(mask);
    return (shifted & (shifted + 1)) == 0;
}

/// The L3 resource a CAT effect check fences (L3DATA under CDP: the streamer's lines are data).
const ResourceCaps* fenceResource(const Capabilities& caps)
{
    if (const auto* l3 = caps.resource("L3")) return l3;
    return caps.resource("L3DATA");
}

/// Stops a check's streamer on every path out of the check.
struct StreamerStop {
    StreamWorkload* workload;
    std::optional<unsigned> task;
    ~StreamerStop()
    {
        if (task) workload->stop(*task);
    }
};

constexpr const char* kReadOnlySkip = "read-only run: --write lets the self-test make its own groups "
                                      "(rdtscope-selftest-*) and removes them afterwards";

} // namespace

struct ResctrlSelftest::Check {
    const char* name;
    const char* section;
    Needs needs;
    CheckResult (ResctrlSelftest::*run)();
};

const std::vector<ResctrlSelftest::Check>& ResctrlSelftest::checks()
{
    static const std::vector<Check> all {
        { "info-cache-masks", "resctrl.rst \"Info directory\" (cbm_mask, min_cbm_bits, num_closids); SDM 20.19.2",
            Needs::Nothing, &ResctrlSelftest::infoCacheMasks },
        { "info-memory-bandwidth", "resctrl.rst \"Info directory\" (min_bandwidth, bandwidth_gran); SDM 20.19.7",
            Needs::Nothing, &ResctrlSelftest::infoMemoryBandwidth },
        { "info-monitoring", "resctrl.rst \"Info directory\" (L3_MON: num_rmids, mon_features)", Needs::Nothing,
            &ResctrlSelftest::infoMonitoring },
        { "default-group-schemata", "resctrl.rst \"Schemata files - general concepts\"", Needs::Nothing,
            &ResctrlSelftest::defaultGroupSchemata },
        { "cpus-in-one-group", "resctrl.rst \"Resource alloc and monitor groups\" (cpus, cpus_list)", Needs::Nothing,
            &ResctrlSelftest::cpusInOneGroup },
        { "counters-readable", "resctrl.rst \"Resource alloc and monitor groups\" (mon_data)", Needs::Nothing,
            &ResctrlSelftest::countersReadable },
        { "closid-limit", "resctrl.rst \"Info directory\" (num_closids) and \"Resource alloc and monitor groups\"",
            Needs::Write, &ResctrlSelftest::closidLimit },
        { "schemata-reads-back", "resctrl.rst \"Schemata files - general concepts\"", Needs::Write,
            &ResctrlSelftest::schemataReadsBack },
        { "noncontiguous-mask-refused", "resctrl.rst \"Info directory\" (sparse_masks); SDM 20.19.2, 20.19.4.2",
            Needs::Write, &ResctrlSelftest::noncontiguousMaskRefused },
        { "cpus-move-and-return", "resctrl.rst \"Resource alloc and monitor groups\" (cpus, removing a group)",
            Needs::Write, &ResctrlSelftest::cpusMoveAndReturn },
        { "mbm-counts-cpu-work", "resctrl.rst \"Resource alloc and monitor groups\" (cpus, mon_data); SDM 20.18.6",
            Needs::Write, &ResctrlSelftest::mbmCountsCpuWork },
        { "cat-fence-bounds-occupancy", "resctrl.rst \"Cache Bit Masks (CBM)\"; SDM 20.19.2 (as selftests cmt_test.c)",
            Needs::Effect, &ResctrlSelftest::catFenceBoundsOccupancy },
        { "mba-cap-lowers-mbm",
            "resctrl.rst \"Memory bandwidth Allocation and monitoring\"; SDM 20.19.7 (as mba_test.c)", Needs::Effect,
            &ResctrlSelftest::mbaCapLowersMbm },
        { "mbm-counts-known-stream",
            "resctrl.rst \"Resource alloc and monitor groups\" (mon_data); SDM 20.18.5.2 (as mbm_test.c)",
            Needs::Effect, &ResctrlSelftest::mbmCountsKnownStream },
    };
    return all;
}

std::vector<std::string> ResctrlSelftest::checkNames()
{
    std::vector<std::string> out;
    for (const auto& c : checks())
        out.push_back(c.name);
    return out;
}

ResctrlSelftest::ResctrlSelftest(std::shared_ptr<Fs> fs, SelftestOptions options)
    : m_fs(std::move(fs))
    , m_options(std::move(options))
{ }

ResctrlSelftest::~ResctrlSelftest()
{
    cleanup();
}

Status ResctrlSelftest::open()
{
    auto backend = ResctrlBackend::open(m_fs);
    if (!backend) return backend.error();
    auto caps = (*backend)->capabilities();
    if (!caps) return caps.error();
    m_backend = std::move(*backend);
    m_caps = std::move(*caps);
    return {};
}

std::vector<std::string> ResctrlSelftest::removeLeftovers()
{
    std::vector<std::string> removed;
    if (!m_backend || !m_options.write) return removed;
    auto groups = m_backend->listGroups();
    if (!groups) return removed;
    for (const auto& g : *groups)
        if (g.isControl && g.name.rfind(m_options.prefix, 0) == 0 && m_backend->removeGroup(g.path))
            removed.push_back(g.path);
    return removed;
}

std::vector<CheckResult> ResctrlSelftest::run(const std::function<void(const CheckResult&)>& report)
{
    std::vector<CheckResult> out;
    for (const auto& c : checks()) {
        if (cancelled()) break;
        out.push_back(runCheck(c.name));
        if (report) report(out.back());
    }
    cleanup();
    return out;
}

CheckResult ResctrlSelftest::runCheck(const std::string& name)
{
    const auto& all = checks();
    const auto it = std::find_if(all.begin(), all.end(), [&](const Check& c) { return name == c.name; });
    if (it == all.end()) return { name, "", Verdict::Fail, "no such check" };
    CheckResult r;
    if (!m_backend)
        r = fail("the resctrl tree is not open");
    else if (it->needs != Needs::Nothing && !m_options.write)
        r = skip(kReadOnlySkip);
    else if (it->needs == Needs::Effect && !effectSkipReason().empty())
        r = skip(effectSkipReason());
    else
        r = (this->*(it->run))();
    cleanup();
    if (cancelled() && r.verdict == Verdict::Pass) r = skip("cancelled (SIGINT/SIGTERM) before the check finished");
    r.name = it->name;
    r.section = it->section;
    return r;
}

void ResctrlSelftest::cleanup()
{
    if (!m_backend) return;
    // Monitor groups first: a control group's rmdir takes its monitor groups with it, so reverse order suffices.
    for (auto it = m_made.rbegin(); it != m_made.rend(); ++it)
        (void)m_backend->removeGroup(*it);
    m_made.clear();
}

Result<std::string> ResctrlSelftest::makeGroup()
{
    const std::string name = m_options.prefix + std::to_string(m_next++);
    // Without allocation only monitor groups can be made: mkdir at the top level is EPERM (resctrl.rst "Resource
    // alloc and monitor groups").
    if (!m_caps.hasAllocation()) {
        if (auto s = m_backend->createMonitorGroup("", name); !s) return s.error();
        m_made.push_back("mon_groups/" + name);
        return m_made.back();
    }
    if (auto s = m_backend->createControlGroup(name); !s) return s.error();
    m_made.push_back(name);
    return name;
}

Status ResctrlSelftest::removeGroup(const std::string& path)
{
    auto s = m_backend->removeGroup(path);
    if (s) m_made.erase(std::remove(m_made.begin(), m_made.end(), path), m_made.end());
    return s;
}

std::string ResctrlSelftest::effectSkipReason() const
{
    if (!m_options.workload) return "no streamer to run in the groups (this build or source cannot launch one)";
    return m_options.workload->unobservableReason();
}

bool ResctrlSelftest::let(std::uint64_t ns)
{
    return m_options.workload->run(ns) && !cancelled();
}

std::optional<std::uint64_t> ResctrlSelftest::mbmBytes(const std::string& group)
{
    auto c = m_backend->readCounters(group);
    if (!c || c->domains.empty()) return std::nullopt;
    std::uint64_t sum = 0;
    for (const auto& d : c->domains) {
        // The counter measured is the total when the machine has it, else the local one (each has its own flags).
        const bool total = m_caps.monitoring.mbmTotal;
        if (d.flags & (total ? kMbmTotalUnread : kMbmLocalUnread)) return std::nullopt;
        sum += (total ? d.mbmTotalRaw : d.mbmLocalRaw) * c->bytesPerUnit;
    }
    return sum;
}

std::optional<std::uint64_t> ResctrlSelftest::occupancyBytes(const std::string& group)
{
    auto c = m_backend->readCounters(group);
    if (!c || c->domains.empty()) return std::nullopt;
    std::uint64_t sum = 0;
    for (const auto& d : c->domains) {
        if (d.flags & (SampleOccupancyError | SampleOccupancyUnavailable)) return std::nullopt;
        sum += d.occupancyBytes;
    }
    return sum;
}

// --- read-only checks -------------------------------------------------------------------------------------------

CheckResult ResctrlSelftest::infoCacheMasks()
{
    std::string checked;
    for (const auto& r : m_caps.resources) {
        if (!r.isCache()) continue;
        const std::string where = "info/" + r.name + ": ";
        if (!contiguous(r.cbmMask) && !r.sparseMasks)
            return fail(where + "cbm_mask " + formatHex(r.cbmMask) + " is not contiguous");
        if (unsigned(std::popcount(r.cbmMask)) != r.cbmBits)
            return fail(where + "cbm_mask " + formatHex(r.cbmMask) + " has " + std::to_string(std::popcount(r.cbmMask))
                + " bits, the backend counted " + std::to_string(r.cbmBits));
        if (r.minCbmBits < 1 || r.minCbmBits > r.cbmBits)
            return fail(
                where + "min_cbm_bits " + std::to_string(r.minCbmBits) + " outside 1.." + std::to_string(r.cbmBits));
        if (r.numClosids < 1) return fail(where + "num_closids is 0");
        if (r.domains.empty()) return fail(where + "no domain in the default group's schemata");
        checked += (checked.empty() ? "" : ", ") + r.name + " " + formatHex(r.cbmMask);
    }
    if (checked.empty()) return skip("no cache allocation resource in info/ (the processor or kernel has no CAT)");
    return pass(checked);
}

CheckResult ResctrlSelftest::infoMemoryBandwidth()
{
    const ResourceCaps* mb = m_caps.resource("MB");
    if (!mb) return skip("no MB resource in info/ (the processor or kernel has no MBA)");
    if (mb->bandwidthUnit != BandwidthUnit::Percent)
        return skip("MB values are not percentages here (AMD or mba_MBps): min_bandwidth has no percent range");
    if (mb->minBandwidth < 1 || mb->minBandwidth > 100)
        return fail("info/MB/min_bandwidth " + std::to_string(mb->minBandwidth) + " is outside 1..100");
    if (mb->bandwidthGran < 1 || mb->bandwidthGran > 100)
        return fail("info/MB/bandwidth_gran " + std::to_string(mb->bandwidthGran) + " is outside 1..100");
    if (mb->domains.empty()) return fail("MB has no domain in the default group's schemata");
    return pass("min " + std::to_string(mb->minBandwidth) + " %, step " + std::to_string(mb->bandwidthGran) + " %");
}

CheckResult ResctrlSelftest::infoMonitoring()
{
    const MonitorCaps& m = m_caps.monitoring;
    if (!m.present) return skip("no info/L3_MON (the processor or kernel has no L3 monitoring)");
    if (m.numRmids < 1) return fail("info/L3_MON/num_rmids is 0 or unreadable");
    if (!m.llcOccupancy && !m.mbmTotal && !m.mbmLocal)
        return fail("info/L3_MON/mon_features lists none of llc_occupancy, mbm_total_bytes, mbm_local_bytes");
    if (m.domains.empty()) return fail("the default group has no mon_data/mon_L3_XX directory");
    if (const ResourceCaps* l3 = fenceResource(m_caps); l3 && l3->domains != m.domains)
        return fail("mon_data's L3 domains differ from the L3 domains of the schemata");
    return pass(std::to_string(m.numRmids) + " RMIDs, " + std::to_string(m.domains.size()) + " domain(s)");
}

CheckResult ResctrlSelftest::defaultGroupSchemata()
{
    if (m_caps.resources.empty()) return skip("no allocation resource: the default group has no schemata lines");
    auto s = m_backend->readSchemata("");
    if (!s) return fail("cannot read the default group's schemata: " + s.error().toString());
    if (!s->warnings().empty()) return fail("schemata lines not understood: " + s->warnings().front());
    for (const auto& r : m_caps.resources) {
        if (!s->has(r.name)) return fail("the schemata has no " + r.name + " line, though info/" + r.name + " exists");
        for (int d : r.domains) {
            auto v = s->value(r.name, d);
            if (!v) return fail(r.name + " has no value for domain " + std::to_string(d));
            if (r.isCache() && r.cbmMask) {
                auto mask = parseMask(*v);
                if (!mask || (*mask & ~r.cbmMask) || *mask == 0)
                    return fail(r.name + ":" + std::to_string(d) + "=" + *v + " is not a mask within cbm_mask "
                        + formatHex(r.cbmMask));
            }
        }
    }
    return pass();
}

CheckResult ResctrlSelftest::cpusInOneGroup()
{
    auto groups = m_backend->listGroups();
    if (!groups) return fail("cannot list the groups: " + groups.error().toString());
    std::map<unsigned, std::string> owner;
    for (const auto& g : *groups) {
        if (!g.isControl) continue;
        auto cpus = m_backend->cpus(g.path);
        if (!cpus) return fail("cannot read the cpus_list of " + (g.path.empty() ? "the default group" : g.path));
        for (unsigned c : *cpus) {
            auto [it, fresh] = owner.emplace(c, g.path);
            if (!fresh)
                return fail("CPU " + std::to_string(c) + " is in two control groups: '" + it->second + "' and '"
                    + g.path + "'");
        }
    }
    if (owner.empty()) return fail("no control group lists any CPU");
    return pass(std::to_string(owner.size()) + " CPUs");
}

CheckResult ResctrlSelftest::countersReadable()
{
    if (!m_caps.monitoring.present) return skip("no L3 monitoring");
    auto c = m_backend->readCounters("");
    if (!c) return fail("cannot read the default group's mon_data: " + c.error().toString());
    if (c->domains.size() != m_caps.monitoring.domains.size())
        return fail("read " + std::to_string(c->domains.size()) + " domain(s) of "
            + std::to_string(m_caps.monitoring.domains.size()));
    for (const auto& d : c->domains)
        if (d.flags & (SampleOccupancyError | SampleMbmError | SampleMbmLocalError))
            return fail("mon_L3_" + std::to_string(d.domain) + " reads \"Error\"");
    return pass();
}

// --- checks that make groups -----------------------------------------------------------------------------------

CheckResult ResctrlSelftest::closidLimit()
{
    if (!m_caps.hasAllocation()) return skip("no allocation resource: no CLOSIDs to run out of");
    if (m_caps.maxControlGroups < 2) return skip("num_closids is unknown or leaves no CLOSID beside the default");
    auto groups = m_backend->listGroups();
    if (!groups) return fail("cannot list the groups: " + groups.error().toString());
    unsigned existing = 0;
    for (const auto& g : *groups)
        existing += g.isControl ? 1 : 0;
    for (unsigned i = existing; i < m_caps.maxControlGroups; ++i) {
        if (cancelled()) return skip("cancelled");
        auto g = makeGroup();
        if (!g)
            return fail("mkdir of control group " + std::to_string(i + 1) + " of "
                + std::to_string(m_caps.maxControlGroups) + " failed: " + g.error().toString());
    }
    auto extra = makeGroup();
    if (extra)
        return fail("a control group beyond num_closids (" + std::to_string(m_caps.maxControlGroups) + ") was made");
    if (extra.error().code != ENOSPC)
        return fail("mkdir beyond num_closids failed with " + extra.error().toString() + ", not ENOSPC");
    return pass(std::to_string(m_caps.maxControlGroups) + " control groups, the next refused with ENOSPC");
}

CheckResult ResctrlSelftest::schemataReadsBack()
{
    const ResourceCaps* l3 = nullptr;
    for (const auto& r : m_caps.resources)
        if (r.isCache() && !l3) l3 = &r;
    if (!l3) return skip("no cache allocation resource");
    auto g = makeGroup();
    if (!g) return fail("mkdir failed: " + g.error().toString());
    const int domain = l3->domains.front();
    const std::uint64_t low = ((std::uint64_t { 1 } << std::max(1u, l3->minCbmBits)) - 1)
        << std::countr_zero(l3->cbmMask);
    Schemata change;
    const std::string text = hexDigits(low);
    change.set(l3->name, domain, text);
    if (auto s = m_backend->applySchemata(*g, change); !s)
        return fail(
            "writing " + l3->name + ":" + std::to_string(domain) + "=" + text + " failed: " + s.error().toString());
    auto back = m_backend->readSchemata(*g);
    if (!back) return fail("cannot read the schemata back: " + back.error().toString());
    auto v = back->value(l3->name, domain);
    if (!v || parseMask(*v).valueOr(0) != low)
        return fail("wrote " + text + ", read back " + (v ? *v : std::string("nothing")));
    // Domains not named keep their values (the default, for a new group).
    for (int d : l3->domains) {
        if (d == domain) continue;
        auto other = back->value(l3->name, d);
        if (!other || parseMask(*other).valueOr(0) != l3->cbmMask)
            return fail("domain " + std::to_string(d) + " changed though the write named only domain "
                + std::to_string(domain));
    }
    return pass();
}

CheckResult ResctrlSelftest::noncontiguousMaskRefused()
{
    const ResourceCaps* l3 = fenceResource(m_caps);
    if (!l3) return skip("no L3 cache allocation");
    if (l3->sparseMasks) return skip("info/" + l3->name + "/sparse_masks is 1: non-contiguous masks are allowed here");
    if (l3->cbmBits < 3) return skip("the L3 mask has fewer than 3 bits: no non-contiguous mask fits");
    auto g = makeGroup();
    if (!g) return fail("mkdir failed: " + g.error().toString());
    auto before = m_backend->readSchemata(*g);
    if (!before) return fail("cannot read the schemata: " + before.error().toString());
    Schemata change;
    change.set(l3->name, l3->domains.front(), "5");
    if (auto s = m_backend->applySchemata(*g, change); s) return fail("the mask 0x5 (bits 0 and 2) was accepted");
    auto after = m_backend->readSchemata(*g);
    if (!after || !(*after == *before)) return fail("the refused write changed the group's schemata");
    return pass();
}

CheckResult ResctrlSelftest::cpusMoveAndReturn()
{
    if (!m_caps.hasAllocation()) return skip("no allocation resource: no control group can take a CPU");
    if (m_caps.cpus.size() < 2) return skip("one CPU: moving it would leave the default group none");
    const unsigned cpu = m_caps.cpus.back();
    auto g = makeGroup();
    if (!g) return fail("mkdir failed: " + g.error().toString());
    auto in = [&](const std::string& group) {
        auto c = m_backend->cpus(group);
        return c && std::count(c->begin(), c->end(), cpu) == 1;
    };
    const std::string cpuName = "CPU " + std::to_string(cpu);
    // Where the CPU was: put back there by nothing but rmdir (to the default group, resctrl.rst).
    if (auto s = m_backend->assignCpus(*g, { cpu }); !s)
        return fail("writing cpus_list failed: " + s.error().toString());
    auto mine = m_backend->cpus(*g);
    if (!mine || *mine != std::vector<unsigned> { cpu })
        return fail("the group's cpus_list does not read back " + std::to_string(cpu));
    if (in("")) return fail(cpuName + " is still in the default group after moving to another");
    if (auto s = removeGroup(*g); !s) return fail("rmdir failed: " + s.error().toString());
    if (!in("")) return fail(cpuName + " did not return to the default group when its group was removed");
    return pass();
}

CheckResult ResctrlSelftest::mbmCountsCpuWork()
{
    if (!m_caps.monitoring.present || (!m_caps.monitoring.mbmTotal && !m_caps.monitoring.mbmLocal))
        return skip("no MBM events in info/L3_MON/mon_features");
    if (m_caps.cpus.size() < 2) return skip("one CPU: moving it would leave the default group none");
    const unsigned cpu = m_caps.cpus.back();
    auto g = makeGroup();
    if (!g) return fail("mkdir failed: " + g.error().toString());
    if (auto s = m_backend->assignCpus(*g, { cpu }); !s)
        return fail("writing cpus_list failed: " + s.error().toString());
    // A streamer of the default group on that CPU runs with the group's RMID (resctrl.rst "Resource alloc and
    // monitor groups": the CPU's group applies to tasks of the default group).
    const bool observable = m_options.workload && m_options.workload->unobservableReason().empty();
    std::optional<unsigned> task;
    if (observable) {
        auto t = m_options.workload->start(cpu, 64ull << 20);
        if (!t) return fail("cannot start the streamer: " + t.error().toString());
        task = *t;
    }
    const StreamerStop stopTask { m_options.workload, task };
    auto first = mbmBytes(*g);
    if (!first) return fail("the group's MBM counters read Error or Unavailable");
    if (m_options.workload && !let(m_options.measureNs)) return skip("cancelled");
    auto second = mbmBytes(*g);
    if (!second) return fail("the group's MBM counters read Error or Unavailable");
    if (*second < *first)
        return fail("mbm bytes went backwards: " + std::to_string(*first) + " then " + std::to_string(*second));
    if (*second == *first) {
        if (observable)
            return fail("a streamer ran on CPU " + std::to_string(cpu) + " of the group and its MBM did not move");
        return skip("nothing counted on CPU " + std::to_string(cpu)
            + " during the interval, and no streamer of "
              "this run can run there to make it count ("
            + effectSkipReason() + ")");
    }
    return pass(mib(*second - *first) + " counted in the interval");
}

// --- effect checks --------------------------------------------------------------------------------------------

CheckResult ResctrlSelftest::catFenceBoundsOccupancy()
{
    const ResourceCaps* l3 = fenceResource(m_caps);
    if (!l3) return skip("no L3 cache allocation");
    if (!m_caps.monitoring.llcOccupancy) return skip("no llc_occupancy event: the fence's effect cannot be measured");
    if (!l3->bytesPerBit) return skip("the L3 size per mask bit is unknown (info/" + l3->name + " or the cache size)");
    if (m_caps.cpus.empty()) return skip("no CPU listed in the default group's cpus_list");
    const unsigned cpu = m_caps.cpus.back();
    // The fence: a quarter of the ways (at least min_cbm_bits), from the mask's low end.
    const unsigned bits = std::max(l3->minCbmBits, std::max(1u, l3->cbmBits / 4));
    const std::uint64_t fence = ((std::uint64_t { 1 } << bits) - 1) << std::countr_zero(l3->cbmMask);
    const std::uint64_t fenceBytes = bits * l3->bytesPerBit;
    // The kernel's cmt_test.c tolerance: more than 15 % and more than 2,000,000 bytes over the expected span fails
    // (other tasks' lines counted against a recycled RMID, the counter's unit).
    const std::uint64_t bound = fenceBytes + std::max<std::uint64_t>(fenceBytes * 15 / 100, 2'000'000);
    auto g = makeGroup();
    if (!g) return fail("mkdir failed: " + g.error().toString());
    Schemata change;
    for (int d : l3->domains)
        change.set(l3->name, d, hexDigits(fence));
    if (auto s = m_backend->applySchemata(*g, change); !s)
        return fail("writing the fence failed: " + s.error().toString());
    // The working set is twice the whole cache: unfenced it could fill every way.
    const std::uint64_t cacheBytes = l3->cbmBits * l3->bytesPerBit;
    auto task = m_options.workload->start(cpu, 2 * cacheBytes);
    if (!task) return fail("cannot start the streamer: " + task.error().toString());
    const StreamerStop stopTask { m_options.workload, *task };
    if (auto s = m_backend->assignTasks(*g, { *task }); !s)
        return fail("writing the streamer's task id to tasks failed: " + s.error().toString());
    if (!let(m_options.measureNs)) return skip("cancelled");
    auto fenced = occupancyBytes(*g);
    if (!fenced) return fail("llc_occupancy read Error or Unavailable");
    // Then unfenced: the same streamer must fill more than the fence, or the check could not tell a fence from a
    // streamer too small to need one.
    Schemata open;
    for (int d : l3->domains)
        open.set(l3->name, d, hexDigits(l3->cbmMask));
    if (auto s = m_backend->applySchemata(*g, open); !s)
        return fail("lifting the fence failed: " + s.error().toString());
    if (!let(m_options.measureNs)) return skip("cancelled");
    auto unfenced = occupancyBytes(*g);
    if (!unfenced) return fail("llc_occupancy read Error or Unavailable");
    const std::string figures = "fence " + formatHex(fence) + " (" + mib(fenceBytes) + "): occupancy " + mib(*fenced)
        + " fenced, " + mib(*unfenced) + " unfenced";
    if (*fenced > bound) return fail(figures + "; fenced it exceeds the fence by more than 15 % and 2 MB");
    if (*unfenced <= bound)
        return skip(figures
            + "; unfenced the streamer filled no more than the fence, so the fence's effect was not "
              "seen (another task may hold the cache)");
    return pass(figures);
}

CheckResult ResctrlSelftest::mbaCapLowersMbm()
{
    const ResourceCaps* mb = m_caps.resource("MB");
    if (!mb) return skip("no MB resource (no MBA)");
    if (mb->bandwidthUnit != BandwidthUnit::Percent)
        return skip("MB values are not percentages here (AMD or mba_MBps); this check caps in percent");
    if (!m_caps.monitoring.mbmTotal && !m_caps.monitoring.mbmLocal) return skip("no MBM event to measure the cap with");
    if (m_caps.cpus.empty()) return skip("no CPU listed in the default group's cpus_list");
    const unsigned cpu = m_caps.cpus.back();
    auto g = makeGroup();
    if (!g) return fail("mkdir failed: " + g.error().toString());
    auto task = m_options.workload->start(cpu, 256ull << 20);
    if (!task) return fail("cannot start the streamer: " + task.error().toString());
    const StreamerStop stopTask { m_options.workload, *task };
    if (auto s = m_backend->assignTasks(*g, { *task }); !s)
        return fail("writing the streamer's task id to tasks failed: " + s.error().toString());
    auto rate = [&]() -> std::optional<std::uint64_t> {
        auto a = mbmBytes(*g);
        if (!a || !let(m_options.measureNs)) return std::nullopt;
        auto b = mbmBytes(*g);
        if (!b || *b < *a) return std::nullopt;
        return *b - *a;
    };
    if (!let(m_options.measureNs / 4)) return skip("cancelled");
    auto full = rate();
    if (!full) return cancelled() ? skip("cancelled") : fail("MBM read Error or Unavailable, or went backwards");
    const unsigned cap = std::max(mb->minBandwidth, 10u);
    Schemata change;
    for (int d : mb->domains)
        change.set("MB", d, std::to_string(cap));
    if (auto s = m_backend->applySchemata(*g, change); !s)
        return fail("writing MB=" + std::to_string(cap) + " failed: " + s.error().toString());
    if (!let(m_options.measureNs / 4)) return skip("cancelled");
    auto capped = rate();
    if (!capped) return cancelled() ? skip("cancelled") : fail("MBM read Error or Unavailable, or went backwards");
    const std::string figures
        = mib(*full) + " per interval at 100 %, " + mib(*capped) + " at " + std::to_string(cap) + " %";
    if (*full == 0) return fail(figures + ": the streamer's MBM did not move at all");
    // A cap to at most a third of the bandwidth must show as at least a 10 % drop (the streamer need not be limited
    // by the cap if it never used the bandwidth, hence not proportional).
    if (double(*capped) > 0.9 * double(*full)) return fail(figures + ": the cap lowered MBM by less than 10 %");
    return pass(figures);
}

CheckResult ResctrlSelftest::mbmCountsKnownStream()
{
    if (!m_caps.monitoring.mbmTotal && !m_caps.monitoring.mbmLocal) return skip("no MBM event");
    if (m_caps.cpus.empty()) return skip("no CPU listed in the default group's cpus_list");
    const unsigned cpu = m_caps.cpus.back();
    auto g = makeGroup();
    if (!g) return fail("mkdir failed: " + g.error().toString());
    auto task = m_options.workload->start(cpu, 256ull << 20);
    if (!task) return fail("cannot start the streamer: " + task.error().toString());
    const StreamerStop stopTask { m_options.workload, *task };
    if (auto s = m_backend->assignTasks(*g, { *task }); !s)
        return fail("writing the streamer's task id to tasks failed: " + s.error().toString());
    if (!let(m_options.measureNs / 4)) return skip("cancelled");
    auto mbm0 = mbmBytes(*g);
    auto own0 = m_options.workload->bytesMoved(*task);
    if (!own0) return skip("the streamer cannot count the bytes it moved");
    if (!mbm0) return fail("MBM read Error or Unavailable");
    if (!let(m_options.measureNs)) return skip("cancelled");
    auto mbm1 = mbmBytes(*g);
    auto own1 = m_options.workload->bytesMoved(*task);
    if (!mbm1 || !own1) return fail("MBM read Error or Unavailable");
    const double counted = double(*mbm1 - std::min(*mbm0, *mbm1));
    const double streamed = double(*own1 - std::min(*own0, *own1));
    const std::string figures
        = "MBM " + mib(std::uint64_t(counted)) + ", the streamer's own count " + mib(std::uint64_t(streamed));
    if (streamed <= 0) return fail(figures + ": the streamer did not run");
    // 8 %, the kernel's mbm_test.c MAX_DIFF_PERCENT (it compares MBM with the memory controller's count).
    const double off = counted / streamed - 1.0;
    if (off > 0.08 || off < -0.08) return fail(figures + ": more than 8 % apart");
    char pct[16];
    std::snprintf(pct, sizeof pct, "%+.1f %%", off * 100);
    return pass(figures + " (" + pct + ", tolerance 8 %)");
}

} // namespace rdt::selftest
