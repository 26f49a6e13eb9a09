// SPDX-License-Identifier: GPL-3.0-or-later
#include "RdtCodec.h"

namespace rdt::protocol {

namespace {
template <typename Repeated> std::vector<int> ints(const Repeated& r)
{
    return { r.begin(), r.end() };
}

template <typename Repeated> void domainValuesToWire(const std::vector<DomainValue>& in, Repeated* out)
{
    for (const auto& v : in) {
        auto* w = out->Add();
        w->set_domain(v.domain);
        w->set_value(v.value);
    }
}

template <typename Repeated> void originsToWire(const InfoOrigins& in, Repeated* out)
{
    for (const auto& e : in.entries()) {
        auto* w = out->Add();
        w->set_key(e.key);
        w->set_origin(static_cast<std::uint32_t>(e.origin));
        w->set_why(e.why);
    }
}

template <typename Repeated> InfoOrigins origins(const Repeated& r)
{
    InfoOrigins out;
    for (const auto& w : r) {
        // A value a newer agent sends that this client does not know reads as unknown, never as read.
        const auto o = w.origin() <= static_cast<std::uint32_t>(InfoOrigin::Unknown)
            ? static_cast<InfoOrigin>(w.origin())
            : InfoOrigin::Unknown;
        out.mark(w.key(), o, w.why());
    }
    return out;
}

template <typename Repeated> std::vector<DomainValue> domainValues(const Repeated& r)
{
    std::vector<DomainValue> out;
    for (const auto& w : r)
        out.push_back({ w.domain(), w.value() });
    return out;
}
}

namespace {
void descriptionToWire(const api::ControlDescription& in, pb::ControlDescription& out)
{
    out.set_name(in.name);
    out.set_resource(in.resource);
    out.set_type(in.type);
    if (in.min) out.set_min(*in.min);
    if (in.max) out.set_max(*in.max);
    if (in.resolution) out.set_resolution(*in.resolution);
    if (in.scale) out.set_scale(*in.scale);
    if (in.tolerance) out.set_tolerance(*in.tolerance);
    out.set_unit(in.unit);
    out.set_scope(in.scope);
    for (const auto& u : in.unknown)
        out.add_unknown(u);
}

api::ControlDescription descriptionFromWire(const pb::ControlDescription& in)
{
    api::ControlDescription d;
    d.name = in.name();
    d.resource = in.resource();
    d.type = in.type();
    if (in.has_min()) d.min = in.min();
    if (in.has_max()) d.max = in.max();
    if (in.has_resolution()) d.resolution = in.resolution();
    if (in.has_scale()) d.scale = in.scale();
    if (in.has_tolerance()) d.tolerance = in.tolerance();
    d.unit = in.unit();
    d.scope = in.scope();
    d.unknown = { in.unknown().begin(), in.unknown().end() };
    return d;
}
} // namespace

void toWire(const Capabilities& in, pb::Capabilities& out)
{
    out.Clear();
    for (const auto& r : in.resources) {
        auto* w = out.add_resources();
        w->set_name(r.name);
        w->set_bandwidth(r.kind == ResourceKind::Bandwidth);
        w->set_num_closids(r.numClosids);
        for (int d : r.domains)
            w->add_domains(d);
        w->set_cbm_mask(r.cbmMask);
        w->set_cbm_bits(r.cbmBits);
        w->set_min_cbm_bits(r.minCbmBits);
        w->set_shareable_bits(r.shareableBits);
        w->set_sparse_masks(r.sparseMasks);
        w->set_bytes_per_bit(r.bytesPerBit);
        w->set_min_bandwidth(r.minBandwidth);
        w->set_bandwidth_gran(r.bandwidthGran);
        w->set_max_bandwidth(r.maxBandwidth);
        w->set_delay_linear(r.delayLinear);
        w->set_mbps_mode(r.mbpsMode);
        w->set_throttle_mode(r.throttleMode);
        w->set_bandwidth_unit(bandwidthUnitKey(r.bandwidthUnit));
        w->set_io_alloc(r.ioAlloc);
        domainValuesToWire(r.ioAllocCbm, w->mutable_io_alloc_cbm());
        originsToWire(r.origins, w->mutable_origins());
        w->set_role(static_cast<std::uint32_t>(r.role));
        w->set_region_plus_one(r.region >= 0 ? static_cast<std::uint32_t>(r.region) + 1 : 0);
        w->set_budget(r.budget);
        w->set_budget_source(r.budgetSource);
        w->set_info_dir(r.infoDir);
        if (r.description) descriptionToWire(*r.description, *w->mutable_description());
        w->set_mode(r.mode);
        for (const auto& m : r.modes)
            w->add_modes(m);
    }
    auto* m = out.mutable_monitoring();
    const auto& mi = in.monitoring;
    m->set_present(mi.present);
    m->set_num_rmids(mi.numRmids);
    m->set_llc_occupancy(mi.llcOccupancy);
    m->set_mbm_total(mi.mbmTotal);
    m->set_mbm_local(mi.mbmLocal);
    for (const auto& f : mi.features)
        m->add_features(f);
    for (int d : mi.domains)
        m->add_domains(d);
    m->set_counter_width(mi.counterWidth);
    m->set_overflow_bit(mi.overflowBit);
    m->set_max_threshold_occupancy(mi.maxThresholdOccupancy);
    domainValuesToWire(mi.mbmTotalConfig, m->mutable_mbm_total_config());
    domainValuesToWire(mi.mbmLocalConfig, m->mutable_mbm_local_config());
    m->set_assign_mode(mi.assignMode);
    for (const auto& a : mi.assignModes)
        m->add_assign_modes(a);
    domainValuesToWire(mi.numMbmCounters, m->mutable_num_mbm_counters());
    domainValuesToWire(mi.availableMbmCounters, m->mutable_available_mbm_counters());
    for (const auto& [event, filter] : mi.eventFilters) {
        auto* f = m->add_event_filters();
        f->set_event(event);
        f->set_filter(filter);
    }
    m->set_assign_on_mkdir(mi.assignOnMkdir + 1); // shifted so that proto3's default 0 reads as "absent" (-1)
    for (const auto& [l3, nodes] : mi.subDomains) {
        auto* s = m->add_sub_domains();
        s->set_l3(l3);
        for (int n : nodes)
            s->add_nodes(n);
    }
    originsToWire(mi.origins, m->mutable_origins());
    auto* t = out.mutable_telemetry();
    t->set_present(in.telemetry.present);
    t->set_num_rmids(in.telemetry.numRmids);
    for (const auto& f : in.telemetry.features)
        t->add_features(f);
    for (int d : in.telemetry.domains)
        t->add_domains(d);
    originsToWire(in.telemetry.origins, t->mutable_origins());
    originsToWire(in.origins, out.mutable_origins());
    out.set_cdp_l3(in.cdpL3);
    out.set_cdp_l2(in.cdpL2);
    out.set_handles_tasks(in.handlesTasks);
    for (unsigned c : in.cpus)
        out.add_cpus(c);
    out.set_max_control_groups(in.maxControlGroups);
}

Capabilities fromWire(const pb::Capabilities& in)
{
    Capabilities c;
    for (const auto& w : in.resources()) {
        ResourceCaps r;
        r.name = w.name();
        r.kind = w.bandwidth() ? ResourceKind::Bandwidth : ResourceKind::Cache;
        r.numClosids = w.num_closids();
        r.domains = ints(w.domains());
        r.cbmMask = w.cbm_mask();
        r.cbmBits = w.cbm_bits();
        r.minCbmBits = w.min_cbm_bits();
        r.shareableBits = w.shareable_bits();
        r.sparseMasks = w.sparse_masks();
        r.bytesPerBit = w.bytes_per_bit();
        r.minBandwidth = w.min_bandwidth();
        r.bandwidthGran = w.bandwidth_gran();
        r.maxBandwidth = w.max_bandwidth();
        r.delayLinear = w.delay_linear();
        r.mbpsMode = w.mbps_mode();
        r.throttleMode = w.throttle_mode();
        r.bandwidthUnit = bandwidthUnitFromKey(w.bandwidth_unit());
        r.ioAlloc = w.io_alloc();
        r.ioAllocCbm = domainValues(w.io_alloc_cbm());
        r.origins = origins(w.origins());
        // An older agent sends no role (0 = Limit) and no region, as its controls had none.
        r.role = w.role() <= static_cast<std::uint32_t>(api::BandwidthRole::RegionMax)
            ? static_cast<api::BandwidthRole>(w.role())
            : api::BandwidthRole::Limit;
        r.region = static_cast<int>(w.region_plus_one()) - 1;
        r.budget = w.budget();
        r.budgetSource = w.budget_source();
        r.infoDir = w.info_dir();
        if (w.has_description()) r.description = descriptionFromWire(w.description());
        r.mode = w.mode();
        r.modes = { w.modes().begin(), w.modes().end() };
        c.resources.push_back(std::move(r));
    }
    const auto& m = in.monitoring();
    c.monitoring.present = m.present();
    c.monitoring.numRmids = m.num_rmids();
    c.monitoring.llcOccupancy = m.llc_occupancy();
    c.monitoring.mbmTotal = m.mbm_total();
    c.monitoring.mbmLocal = m.mbm_local();
    c.monitoring.features = { m.features().begin(), m.features().end() };
    c.monitoring.domains = ints(m.domains());
    c.monitoring.counterWidth = m.counter_width();
    c.monitoring.overflowBit = m.overflow_bit();
    c.monitoring.maxThresholdOccupancy = m.max_threshold_occupancy();
    c.monitoring.mbmTotalConfig = domainValues(m.mbm_total_config());
    c.monitoring.mbmLocalConfig = domainValues(m.mbm_local_config());
    c.monitoring.assignMode = m.assign_mode();
    c.monitoring.assignModes = { m.assign_modes().begin(), m.assign_modes().end() };
    c.monitoring.numMbmCounters = domainValues(m.num_mbm_counters());
    c.monitoring.availableMbmCounters = domainValues(m.available_mbm_counters());
    for (const auto& f : m.event_filters())
        c.monitoring.eventFilters.emplace_back(f.event(), f.filter());
    c.monitoring.assignOnMkdir = m.assign_on_mkdir() - 1;
    for (const auto& s : m.sub_domains())
        c.monitoring.subDomains.emplace_back(s.l3(), ints(s.nodes()));
    c.monitoring.origins = origins(m.origins());
    const auto& t = in.telemetry();
    c.telemetry.present = t.present();
    c.telemetry.numRmids = t.num_rmids();
    c.telemetry.features = { t.features().begin(), t.features().end() };
    c.telemetry.domains = ints(t.domains());
    c.telemetry.origins = origins(t.origins());
    c.origins = origins(in.origins());
    c.cdpL3 = in.cdp_l3();
    c.cdpL2 = in.cdp_l2();
    c.handlesTasks = in.handles_tasks();
    c.cpus = { in.cpus().begin(), in.cpus().end() };
    c.maxControlGroups = in.max_control_groups();
    return c;
}

void toWire(const GroupInfo& in, pb::GroupInfo& out)
{
    out.set_path(in.path);
    out.set_name(in.name);
    out.set_is_control(in.isControl);
    out.set_parent(in.parent);
    out.set_mode(in.mode);
    out.set_closid(in.closid);
    out.set_rmid(in.rmid);
}

GroupInfo fromWire(const pb::GroupInfo& in)
{
    return { in.path(), in.name(), in.is_control(), in.parent(), in.mode(), in.closid(), in.rmid() };
}

void toWire(const AllocationChanged& in, pb::AllocationChanged& out)
{
    out.set_time_ns(in.timeNs);
    out.set_who(in.who);
    out.set_group(in.group);
    out.set_resource(in.resource);
    out.set_domain(in.domain);
    out.set_old_value(in.oldValue);
    out.set_new_value(in.newValue);
    out.set_ok(in.ok);
    out.set_message(in.message);
}

AllocationChanged fromWire(const pb::AllocationChanged& in)
{
    return { in.time_ns(), in.who(), in.group(), in.resource(), in.domain(), in.old_value(), in.new_value(), in.ok(),
        in.message() };
}

void toWire(const SimulationEvent& in, pb::SimulationEvent& out)
{
    out.set_time_ns(in.timeNs);
    out.set_text(in.text);
    out.set_ok(in.ok);
    out.set_note(in.note);
}

SimulationEvent fromWire(const pb::SimulationEvent& in)
{
    return { in.time_ns(), in.text(), in.ok(), in.note() };
}

} // namespace rdt::protocol
