// SPDX-License-Identifier: GPL-3.0-or-later
#include "EventEncoder.h"

#include "PerfSyscalls.h"

#include <perfmon/pfmlib_perf_event.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <span>

namespace rdt::pmu {

namespace {

int pfmInit()
{
    static std::once_flag once;
    static int rc = PFM_SUCCESS;
    std::call_once(once, [] { rc = pfm_initialize(); });
    return rc;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(
        out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

struct OwnEvent {
    std::array<const char*, 3> names; ///< lower case; ':' and '.' are treated alike
    std::uint64_t config;
    TmaModel minTma; ///< None: not a TMA event (then needsAux applies)
    bool needsAux;
    bool atom = false; ///< a Gracemont E-core event: only on an atom model, and P-core events never there
};

// [kpe INTEL_TD_SLOTS / INTEL_TD_METRIC_*]; [kcore EVENT_ATTR_STR topdown-*]; pipeline.json TOPDOWN.*_SLOTS;
// [kcore] MEM_LOADS_AUX X86_CONFIG(.event=0x03, .umask=0x82).
constexpr OwnEvent kOwn[] = {
    { { "slots", "topdown.slots", nullptr }, 0x0400, TmaModel::Icelake, false },
    { { "topdown-retiring", "topdown_m.retiring", nullptr }, 0x8000, TmaModel::Icelake, false },
    { { "topdown-bad-spec", "topdown_m.bad_spec", nullptr }, 0x8100, TmaModel::Icelake, false },
    { { "topdown-fe-bound", "topdown_m.fe_bound", nullptr }, 0x8200, TmaModel::Icelake, false },
    { { "topdown-be-bound", "topdown_m.be_bound", nullptr }, 0x8300, TmaModel::Icelake, false },
    { { "topdown-heavy-ops", "topdown_m.heavy_ops", nullptr }, 0x8400, TmaModel::SapphireRapids, false },
    { { "topdown-br-mispredict", "topdown_m.br_mispredict", nullptr }, 0x8500, TmaModel::SapphireRapids, false },
    { { "topdown-fetch-lat", "topdown_m.fetch_lat", nullptr }, 0x8600, TmaModel::SapphireRapids, false },
    { { "topdown-mem-bound", "topdown_m.memory_bound", "topdown-memory-bound" }, 0x8700, TmaModel::SapphireRapids,
        false },
    { { "topdown.backend_bound_slots", nullptr, nullptr }, 0x02a4, TmaModel::Icelake, false },
    { { "topdown.br_mispredict_slots", nullptr, nullptr }, 0x08a4, TmaModel::Icelake, false },
    { { "mem-loads-aux", nullptr, nullptr }, 0x8203, TmaModel::None, true },
    // Gracemont (cpu_atom on Alder Lake / Raptor Lake). Codes from linux tools/perf/pmu-events/arch/x86/alderlake/
    // pipeline.json, entries with "Unit": "cpu_atom" (no "UMask" there means umask 0):
    //   TOPDOWN_RETIRING.ALL "EventCode": "0xc2"; TOPDOWN_BAD_SPECULATION.ALL "0x73"; TOPDOWN_FE_BOUND.ALL "0x71";
    //   TOPDOWN_BE_BOUND.ALL "0x74"; CPU_CLK_UNHALTED.CORE_P "0x3c" (the general-counter form of
    //   CPU_CLK_UNHALTED.CORE, which perf's tma_info_core_clks uses; that one is a fixed-counter pseudo-encoding,
    //   "UMask": "0x2" without an event code, whose acceptance depends on the kernel version). 3CH/00H is also the
    //   architectural UnHalted Core Cycles event (SDM 22.2.7, Table 22-3), so it holds on every E-core.
    // MEM_UOPS_RETIRED.LOAD_LATENCY: event 0xd0 umask 0x5, ldlat in config1 like the P-core's, from the kernel's
    // arch/x86/events/intel/core.c: EVENT_ATTR_STR_HYBRID(mem-loads, mem_ld_adl,
    // "event=0xd0,umask=0x5,ldlat=3;event=0xcd,umask=0x1,ldlat=3", hybrid_big_small) (the first is the E-core's);
    // the same event as memory.json's cpu_atom MEM_UOPS_RETIRED.LOAD_LATENCY_GT_* ("0xd0", "UMask": "0x5").
    { { "topdown_retiring.all", nullptr, nullptr }, 0x00c2, TmaModel::Gracemont, false, true },
    { { "topdown_bad_speculation.all", nullptr, nullptr }, 0x0073, TmaModel::Gracemont, false, true },
    { { "topdown_fe_bound.all", nullptr, nullptr }, 0x0071, TmaModel::Gracemont, false, true },
    { { "topdown_be_bound.all", nullptr, nullptr }, 0x0074, TmaModel::Gracemont, false, true },
    { { "cpu_clk_unhalted.core_p", nullptr, nullptr }, 0x003c, TmaModel::None, false, true },
    { { "mem_uops_retired.load_latency", nullptr, nullptr }, 0x05d0, TmaModel::None, false, true },
    // Crestmont (cpu_atom on Meteor Lake), from tools/perf/pmu-events/arch/x86/meteorlake/pipeline.json, "Unit":
    // "cpu_atom" (the ALL_P events were added by "perf vendor events intel: Update meteorlake to 1.08", LKML
    // 2024-03-21): TOPDOWN_RETIRING.ALL_P "EventCode": "0x72" (not Gracemont's 0xc2), TOPDOWN_BAD_SPECULATION.ALL_P
    // "0x73", TOPDOWN_FE_BOUND.ALL_P "0x71", TOPDOWN_BE_BOUND.ALL_P "0x74", no UMask. The kernel gives Meteor Lake
    // the same mem-loads alias (mtl_hybrid_mem_attrs = mem_ld_adl, mem_st_adl, without mem-loads-aux).
    { { "topdown_retiring.all_p", nullptr, nullptr }, 0x0072, TmaModel::Crestmont, false, true },
    { { "topdown_bad_speculation.all_p", nullptr, nullptr }, 0x0073, TmaModel::Crestmont, false, true },
    { { "topdown_fe_bound.all_p", nullptr, nullptr }, 0x0071, TmaModel::Crestmont, false, true },
    { { "topdown_be_bound.all_p", nullptr, nullptr }, 0x0074, TmaModel::Crestmont, false, true },
};

std::string normalise(std::string_view s)
{
    std::string n = lower(s);
    std::replace(n.begin(), n.end(), ':', '.');
    return n;
}

const OwnEvent* findOwn(std::string_view event)
{
    const std::string n = normalise(event);
    for (const auto& e : kOwn)
        for (const char* name : e.names)
            if (name && n == name) return &e;
    return nullptr;
}

/// How much TMA a model offers, for choosing among present PMUs and for the P-core events' minimum model.
int rank(TmaModel m)
{
    switch (m) {
    case TmaModel::None:
        return 0;
    case TmaModel::Gracemont: // level 1 from generic counters, like pre-Ice Lake; never preferred to a P-core
    case TmaModel::Crestmont:
    case TmaModel::PreIcelake:
        return 1;
    case TmaModel::Icelake:
        return 2;
    case TmaModel::SapphireRapids:
        return 3;
    }
    return 0;
}

} // namespace

std::string_view tmaModelName(TmaModel m)
{
    switch (m) {
    case TmaModel::None:
        return "none";
    case TmaModel::PreIcelake:
        return "level 1 from generic counters (pre-Ice Lake)";
    case TmaModel::Icelake:
        return "slots + PERF_METRICS level 1 (Ice Lake)";
    case TmaModel::SapphireRapids:
        return "slots + PERF_METRICS levels 1-2 (Sapphire Rapids)";
    case TmaModel::Gracemont:
        return "level 1 from TOPDOWN_*.ALL, 5 slots per cycle (Gracemont E-core)";
    case TmaModel::Crestmont:
        return "level 1 from TOPDOWN_*.ALL_P, 6 slots per cycle (Crestmont E-core)";
    }
    return "?";
}

PmuModel modelForPfmName(std::string_view pfmName, std::string_view description)
{
    PmuModel m;
    m.pfmName = std::string(pfmName);
    m.description = std::string(description);
    static constexpr std::string_view preIcl[]
        = { "snb", "snb_ep", "ivb", "ivb_ep", "hsw", "hsw_ep", "bdw", "bdw_ep", "skl", "skx", "clx" };
    static constexpr std::string_view icl[] = { "icl", "icx" };
    static constexpr std::string_view spr[] = { "spr", "emr", "gnr", "adl_glc", "rpl_glc" };
    static constexpr std::string_view grt[] = { "adl_grt", "rpl_grt" };
    static constexpr std::string_view cmt[] = { "mtl_cmt" };
    auto in = [&](auto& list) { return std::find(std::begin(list), std::end(list), pfmName) != std::end(list); };
    if (in(grt) || in(cmt)) {
        m.atom = true;
        m.tma = in(grt) ? TmaModel::Gracemont : TmaModel::Crestmont; // no mem-loads-aux: hybrid_big only [kcore]
    } else if (in(preIcl))
        m.tma = TmaModel::PreIcelake;
    else if (in(icl))
        m.tma = TmaModel::Icelake;
    else if (in(spr)) {
        m.tma = TmaModel::SapphireRapids;
        m.memLoadsAux = true; // [kcore] SPR and ADL/RPL P-cores: PMU_FL_MEM_LOADS_AUX
    }
    m.intel = m.tma != TmaModel::None;
    m.loadLatency = m.intel; // MEM_TRANS_RETIRED.LOAD_LATENCY: Nehalem and later; every model above has it
    m.lbr = m.intel; // perf exposes model-specific LBRs on all of these (call-stack mode from Haswell on)
    return m;
}

std::vector<std::string> EventEncoder::presentCorePmus()
{
    std::vector<std::string> out;
    if (pfmInit() != PFM_SUCCESS) return out;
    pfm_pmu_info_t info;
    for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; ++p) {
        std::memset(&info, 0, sizeof info);
        info.size = sizeof info;
        if (pfm_get_pmu_info(static_cast<pfm_pmu_t>(p), &info) != PFM_SUCCESS || !info.is_present) continue;
        if (info.type == PFM_PMU_TYPE_CORE && info.name) out.emplace_back(info.name);
    }
    return out;
}

Result<EventEncoder> EventEncoder::create(std::uint32_t rawTypeOverride)
{
    if (const int rc = pfmInit(); rc != PFM_SUCCESS)
        return makeError(std::string("libpfm4 initialisation failed: ") + pfm_strerror(rc),
            "check LIBPFM_FORCE_PMU and the other LIBPFM_* variables");
    PmuModel best;
    pfm_pmu_info_t info;
    for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; ++p) {
        std::memset(&info, 0, sizeof info);
        info.size = sizeof info;
        if (pfm_get_pmu_info(static_cast<pfm_pmu_t>(p), &info) != PFM_SUCCESS || !info.is_present) continue;
        if (info.type != PFM_PMU_TYPE_CORE || !info.name) continue;
        PmuModel m = modelForPfmName(info.name, info.desc ? info.desc : "");
        // Prefer the newest TMA model among present PMUs (LIBPFM_ENCODE_INACTIVE keeps older forced ones active).
        if (best.pfmName.empty() || rank(m.tma) > rank(best.tma)) best = std::move(m);
    }
    if (rawTypeOverride != 0) best.rawType = rawTypeOverride;
    return EventEncoder(std::move(best));
}

EventEncoder EventEncoder::forModel(PmuModel model)
{
    return EventEncoder(std::move(model), true);
}

Result<EncodedEvent> EventEncoder::encodeOffline(std::string_view event, bool user, bool kernel) const
{
    EncodedEvent out;
    out.name = std::string(event);
    out.ownTable = true;
    EventAttr& a = out.attr;
    a.size = perf::AttrSizeVer8;
    a.setFlag(EventAttr::FlagExcludeUser, !user);
    a.setFlag(EventAttr::FlagExcludeKernel, !kernel);
    a.setFlag(EventAttr::FlagExcludeHv, true);
    const std::string n = lower(event);
    if (n == "cycles" || n == "cpu-clock") {
        a.type = n == "cycles" ? TypeHardware : TypeSoftware;
        a.config = 0; // PERF_COUNT_HW_CPU_CYCLES / PERF_COUNT_SW_CPU_CLOCK
        out.fstr = "perf::" + n;
        return out;
    }
    constexpr std::string_view ll = "mem_trans_retired:load_latency";
    if (n.rfind(ll, 0) == 0 && m_model.loadLatency && !m_model.atom) { // E-cores: mem_uops_retired.load_latency
        a.type = m_model.rawType;
        a.config = 0x1cd; // event 0xcd umask 0x01 [kcore mem-loads]
        a.config1 = 3; // the kernel's default ldlat
        for (std::size_t pos = ll.size(); pos < n.size();) {
            const std::size_t next = std::min(n.find(':', pos + 1), n.size());
            const std::string mod = n.substr(pos + 1, next - pos - 1);
            if (mod.rfind("ldlat=", 0) == 0)
                a.config1 = std::strtoull(mod.c_str() + 6, nullptr, 10);
            else if (mod.rfind("precise=", 0) == 0)
                a.setPreciseIp(static_cast<unsigned>(std::strtoul(mod.c_str() + 8, nullptr, 10)));
            pos = next;
        }
        out.fstr = m_model.pfmName + "::MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=" + std::to_string(a.config1);
        return out;
    }
    struct Known {
        const char* name;
        std::uint64_t config;
    };
    // Raw events from the tables below: event | umask << 8 | edge << 18 | cmask << 24 (SDM 22.2.1.1
    // IA32_PERFEVTSELx layout), as libpfm4 encodes them without the privilege and enable bits.
    auto fromTable = [&](std::span<const Known> table) -> std::optional<EncodedEvent> {
        for (const auto& k : table) {
            if (n != k.name) continue;
            a.type = m_model.rawType;
            a.config = k.config;
            std::string upper(event);
            for (auto& c : upper)
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            out.fstr = m_model.pfmName + "::" + upper;
            return out;
        }
        return std::nullopt;
    };
    const bool skylakeOn = m_model.pfmName == "skl" || m_model.pfmName == "skx" || m_model.pfmName == "clx";
    if (m_model.tma == TmaModel::PreIcelake) {
        // The four generic-counter events of the pre-Ice Lake TMA recipe, as libpfm4 encodes them for these models
        // (its intel_skl/intel_bdw/intel_hsw event tables; INT_MISC.RECOVERY_CYCLES is umask 03H with cmask 1
        // before Skylake, umask 01H from Skylake on).
        const Known known[] = { { "uops_issued:any", 0x010e }, { "uops_retired:retire_slots", 0x02c2 },
            { "idq_uops_not_delivered:core", 0x019c },
            { "int_misc:recovery_cycles", skylakeOn ? 0x010dull : 0x0100030dull } };
        if (auto e = fromTable(known)) return *e;
        // Skylake's other level-2 events (libpfm4's intel_skl table; checked against libpfm4 4.13 forced to skx by
        // EventEncoder.OfflineSkylakeLevelTwoMatchesLibpfm); its Memory Bound events are the table below.
        const Known skylakeLevel2[] = { { "idq_uops_not_delivered:cycles_0_uops_deliv_core", 0x0400019c },
            { "br_misp_retired:all_branches", 0x00c5 }, { "machine_clears:count", 0x010401c3 },
            { "idq:ms_uops", 0x3079 } };
        if (skylakeOn)
            if (auto e = fromTable(skylakeLevel2)) return *e;
    }
    if (skylakeOn || m_model.tma == TmaModel::Icelake) {
        // The TMA Memory Bound events (pmu/MemoryBound.h and Skylake's level 2), as libpfm4's intel_skl and
        // intel_icl tables encode them (the SDM's event lists for Skylake and Ice Lake: CYCLE_ACTIVITY A3H,
        // EXE_ACTIVITY A6H); checked against libpfm4 4.13 forced to skx and icx.
        const Known known[] = { { "cycle_activity:stalls_mem_any", 0x140014a3 },
            { "cycle_activity:stalls_total", 0x040004a3 },
            // Ice Lake counts store-bound cycles with cmask 2 (libpfm4's intel_icl table; the SDM's Ice Lake list).
            { "exe_activity:bound_on_stores", m_model.tma == TmaModel::Icelake ? 0x020040a6ull : 0x40a6ull },
            { "exe_activity:1_ports_util", 0x02a6 }, { "exe_activity:2_ports_util", 0x04a6 } };
        if (auto e = fromTable(known)) return *e;
    }
    return makeError("event '" + std::string(event) + "' is not known to the offline encoder for "
        + (m_model.pfmName.empty() ? std::string("this model") : m_model.pfmName));
}

bool EventEncoder::inOwnTable(std::string_view event)
{
    return findOwn(event) != nullptr;
}

Result<EncodedEvent> EventEncoder::encodeOwn(std::string_view event, bool user, bool kernel) const
{
    const OwnEvent* e = findOwn(event);
    if (!e) return makeError("unknown event '" + std::string(event) + "'");
    if (e->atom != m_model.atom)
        return makeError(std::string(event) + (e->atom ? " is an E-core (cpu_atom) event" : " is not an E-core event")
                + " and this PMU is " + (m_model.pfmName.empty() ? std::string("none") : m_model.pfmName),
            e->atom ? "encode it for the cpu_atom PMU of a hybrid part" : "E-cores (cpu_atom) have their own events");
    if (e->atom) {
        if (e->minTma != TmaModel::None && m_model.tma != e->minTma) // each E-core generation has its own codes
            return makeError(std::string(event) + " is not an event of this E-core model ("
                    + std::string(tmaModelName(m_model.tma)) + ")",
                m_model.tmaUnavailable.empty()
                    ? std::string("its encoding is verified for ") + std::string(tmaModelName(e->minTma)) + " only"
                    : m_model.tmaUnavailable);
    } else if (e->needsAux && !m_model.memLoadsAux)
        return makeError(std::string(event) + " exists only on Sapphire Rapids and later (and ADL/RPL P-cores)",
            "this model (" + (m_model.pfmName.empty() ? std::string("none") : m_model.pfmName)
                + ") schedules mem-loads without an auxiliary leader");
    if (!e->atom && !e->needsAux && rank(m_model.tma) < rank(e->minTma))
        return makeError(std::string(event) + " is not supported on this model ("
                + (m_model.pfmName.empty() ? std::string("no Intel core PMU") : m_model.pfmName) + ")",
            e->minTma == TmaModel::SapphireRapids ? "level-2 metric events need Sapphire Rapids or later"
                                                  : "TMA metric events need Ice Lake or later (slots + PERF_METRICS)");
    EncodedEvent out;
    out.name = std::string(event);
    out.fstr = "rdtscope:" + normalise(event);
    out.ownTable = true;
    out.attr.type = m_model.rawType;
    out.attr.config = e->config;
    out.attr.size = perf::AttrSizeVer8;
    out.attr.setFlag(EventAttr::FlagExcludeUser, !user);
    out.attr.setFlag(EventAttr::FlagExcludeKernel, !kernel);
    out.attr.setFlag(EventAttr::FlagExcludeHv, true);
    return out;
}

Result<EncodedEvent> EventEncoder::encode(std::string_view event, bool user, bool kernel) const
{
    if (!user && !kernel) return makeError("event " + std::string(event) + " counts neither user nor kernel space");
    if (inOwnTable(event)) return encodeOwn(event, user, kernel);
    if (m_offline) return encodeOffline(event, user, kernel);
    if (const int rc = pfmInit(); rc != PFM_SUCCESS)
        return makeError(std::string("libpfm4 initialisation failed: ") + pfm_strerror(rc));

    std::string name(event);
    if (name.find("::") == std::string::npos) {
        // Intel's "UOPS_ISSUED.ANY" is libpfm's "UOPS_ISSUED:ANY"
        if (auto dot = name.find('.'); dot != std::string::npos && name.find(':') == std::string::npos) name[dot] = ':';
    }
    const int plm = (user ? PFM_PLM3 : 0) | (kernel ? PFM_PLM0 : 0);
    auto tryEncode = [&](const std::string& s, EncodedEvent& out) {
        perf_event_attr attr;
        std::memset(&attr, 0, sizeof attr);
        pfm_perf_encode_arg_t arg;
        std::memset(&arg, 0, sizeof arg);
        char* fstr = nullptr;
        arg.attr = &attr;
        arg.fstr = &fstr;
        arg.size = sizeof arg;
        const int rc = pfm_get_os_event_encoding(s.c_str(), plm, PFM_OS_PERF_EVENT_EXT, &arg);
        if (rc == PFM_SUCCESS) {
            out.fstr = fstr ? fstr : "";
            out.attr.type = attr.type == TypeRaw ? m_model.rawType : attr.type;
            out.attr.size = perf::AttrSizeVer8;
            out.attr.config = attr.config;
            out.attr.config1 = attr.config1;
            out.attr.config2 = attr.config2;
            out.attr.setPreciseIp(attr.precise_ip);
            out.attr.setFlag(EventAttr::FlagExcludeUser, attr.exclude_user);
            out.attr.setFlag(EventAttr::FlagExcludeKernel, attr.exclude_kernel);
            out.attr.setFlag(EventAttr::FlagExcludeHv, attr.exclude_hv);
            if (attr.sample_period) {
                out.attr.samplePeriod = attr.sample_period;
                out.attr.setFlag(EventAttr::FlagFreq, attr.freq);
            }
        }
        std::free(fstr);
        return rc;
    };
    EncodedEvent out;
    out.name = std::string(event);
    int rc = PFM_ERR_NOTFOUND;
    const bool qualified = name.find("::") != std::string::npos;
    if (!qualified && !m_model.pfmName.empty()) rc = tryEncode(m_model.pfmName + "::" + name, out);
    if (rc == PFM_ERR_NOTFOUND && !qualified)
        rc = tryEncode("perf::" + name, out); // generic events (cpu-clock, cycles) from libpfm's perf PMU
    if (rc == PFM_ERR_NOTFOUND) rc = tryEncode(name, out);
    if (rc != PFM_SUCCESS)
        return makeError("cannot encode event '" + std::string(event) + "': " + pfm_strerror(rc),
            rc == PFM_ERR_NOTFOUND ? "the event does not exist on this PMU model ("
                    + (m_model.pfmName.empty() ? std::string("no Intel core PMU detected") : m_model.pfmName) + ")"
                                   : "check the event's modifiers (libpfm syntax EVENT:UMASK:mod=value)");
    return out;
}

} // namespace rdt::pmu
