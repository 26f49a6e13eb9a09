// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Event names to perf_event_attr through libpfm4 4.13 (pfm_get_os_event_encoding with PFM_OS_PERF_EVENT_EXT),
// plus our own table for what 4.13 lacks or gets wrong (docs/PMU.md "libpfm4"):
//  - the TMA metric pseudo-events topdown-* (0x8000..0x8700) and slots (0x0400), added to libpfm only after 4.13;
//  - TOPDOWN.BACKEND_BOUND_SLOTS (0x02a4) and TOPDOWN.BR_MISPREDICT_SLOTS (0x08a4), which 4.13 encodes as
//    0x0200/0x0800 (event code 0 without an override);
//  - mem-loads-aux (0x8203), the group leader load latency needs on Sapphire Rapids and later;
//  - the E-core (cpu_atom) events rdtscope uses on Gracemont (Alder Lake / Raptor Lake) and Crestmont (Meteor
//    Lake): 4.13 has no hybrid tables at all, so hybrid parts are encoded from this table
//    (modelForPfmName("adl_glc" / "adl_grt" / "mtl_cmt")).
// libpfm4's state is process-wide: LIBPFM_FORCE_PMU / LIBPFM_ENCODE_INACTIVE must be set before the first
// EventEncoder is created in a process (tests fork one child per forced PMU).

#include "PerfRecord.h"
#include "core/Result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rdt::pmu {

/// How the model exposes Top-down Microarchitecture Analysis.
enum class TmaModel : std::uint8_t {
    None, ///< no TMA events we know how to use (non-Intel, pre-Sandy Bridge, or unknown)
    PreIcelake, ///< level 1 from generic counters (SNB..CLX; pmu-tools skl_client_ratios.py)
    Icelake, ///< slots + 4 metric events (PERF_METRICS level 1), num_topdown_events = 4
    SapphireRapids, ///< slots + 8 metric events (level 1 and level 2), num_topdown_events = 8
    Gracemont, ///< E-core level 1 from TOPDOWN_*.ALL and CPU_CLK_UNHALTED.CORE_P, 5 slots per cycle (perf adl-metrics)
    Crestmont, ///< E-core level 1 from TOPDOWN_*.ALL_P and CPU_CLK_UNHALTED.CORE_P, 6 slots per cycle (mtl-metrics)
};
std::string_view tmaModelName(TmaModel m);

/// The core PMU model as libpfm4 detected (or was forced to) and what rdtscope may ask of it.
struct PmuModel {
    std::string pfmName; ///< libpfm PMU name: "skx", "icx", "spr", "amd64_fam19h_zen3", ... empty when none
    std::string description; ///< libpfm's description, e.g. "Intel Skylake X"
    bool intel = false;
    TmaModel tma = TmaModel::None;
    bool memLoadsAux = false; ///< load latency needs the mem-loads-aux leader (SPR, ADL/RPL P-cores)
    bool loadLatency = false; ///< MEM_TRANS_RETIRED.LOAD_LATENCY (PEBS) exists
    bool lbr = false; ///< model-specific LBR that perf exposes as branch stacks
    std::uint32_t rawType = 4; ///< PMU type for raw events: 4, or cpu_core's sysfs type on hybrid parts
    bool atom = false; ///< an E-core PMU (cpu_atom): own-table E-core events instead of the P-core ones
    /// Hybrid parts: the sysfs PMU ("cpu_core", "cpu_atom") whose type generic events carry in config bits 32-63
    /// (the kernel would otherwise pick one core PMU for them); empty on parts with one core PMU.
    std::string pmuName;
    /// Why TMA is None on an E-core we know (its slot width and events are not verified for this model).
    std::string tmaUnavailable;
};

/// Classifies a libpfm PMU name (exposed for tests and for the simulator's presets).
PmuModel modelForPfmName(std::string_view pfmName, std::string_view description = {});

/// One encoded event.
struct EncodedEvent {
    std::string name; ///< as asked
    std::string fstr; ///< libpfm's fully qualified string, or "rdtscope:<name>" for our own table
    EventAttr attr; ///< type/config/config1/precise_ip/exclude_* set; sample_type etc. left to the recipe
    bool ownTable = false;
};

class EventEncoder {
public:
    /// Initialises libpfm4 (once per process) and detects the core PMU. rawTypeOverride != 0 replaces type 4 for
    /// raw events (hybrid parts: /sys/bus/event_source/devices/cpu_core/type).
    static Result<EventEncoder> create(std::uint32_t rawTypeOverride = 0);
    /// An encoder for a known model that never calls libpfm (the simulator, tests): own-table events, "cycles",
    /// "cpu-clock" and MEM_TRANS_RETIRED:LOAD_LATENCY[:ldlat=N][:precise=P] (the events the recipes use).
    static EventEncoder forModel(PmuModel model);

    const PmuModel& model() const { return m_model; }
    /// This encoder for one core PMU of a hybrid part: raw events get `type`, generic ones carry it in config bits
    /// 32-63, and the model records the PMU's sysfs name.
    EventEncoder forPmu(std::string pmuName, std::uint32_t type) const
    {
        EventEncoder e = *this;
        e.m_model.pmuName = std::move(pmuName);
        e.m_model.rawType = type;
        return e;
    }
    /// PMU names libpfm reports present (core PMUs only), for `rdtscope-cli pmu` diagnostics.
    static std::vector<std::string> presentCorePmus();

    /// Encodes `event` (libpfm syntax "UOPS_ISSUED:ANY:ldlat=30", Intel's "UOPS_ISSUED.ANY", our own table's names
    /// "slots", "topdown-retiring", "mem-loads-aux", or generic "cpu-clock"). Counts user space when `user`, kernel
    /// when `kernel`. Core events are qualified with the detected PMU ("icx::") so a forced or hybrid model never
    /// falls back to another PMU's table.
    Result<EncodedEvent> encode(std::string_view event, bool user = true, bool kernel = false) const;

    /// Our own table alone (no libpfm): the entry for `event` on this model, or an error explaining why not.
    Result<EncodedEvent> encodeOwn(std::string_view event, bool user, bool kernel) const;
    static bool inOwnTable(std::string_view event);

private:
    explicit EventEncoder(PmuModel m, bool offline = false)
        : m_model(std::move(m))
        , m_offline(offline)
    { }
    Result<EncodedEvent> encodeOffline(std::string_view event, bool user, bool kernel) const;
    PmuModel m_model;
    bool m_offline = false;
};

} // namespace rdt::pmu
