// SPDX-License-Identifier: GPL-3.0-or-later
#include "CapabilitiesText.h"

#include "BandwidthUnit.h"

#include <charconv>
#include <sstream>

namespace rdt {

std::string formatCapabilitiesText(const Capabilities& caps)
{
    std::string t;
    // A value whose info/ file was missing is written "unknown", never the number the rules work with.
    auto value = [](const InfoOrigins& o, const char* key, const std::string& text) {
        return o.known(key) ? text : std::string("unknown");
    };
    for (const auto& r : caps.resources) {
        const auto& o = r.origins;
        t += r.name + ": " + value(o, "num_closids", std::to_string(r.numClosids)) + " CLOS, domains";
        for (int d : r.domains)
            t += " " + std::to_string(d);
        if (r.isCache()) {
            t += ", cbm_mask " + std::to_string(r.cbmBits) + " bits, min_cbm_bits "
                + value(o, "min_cbm_bits", std::to_string(r.minCbmBits));
            if (r.bytesPerBit > 0) t += ", bytes_per_bit " + std::to_string(r.bytesPerBit);
            // SNC: resctrl's size is one node's share (resctrl.rst "Notes on Sub-NUMA Cluster mode"); a replay
            // needs the node count to show the whole cache and each node's share as the live view did.
            if (const unsigned snc = caps.monitoring.sncNodesPerL3(); snc > 1 && r.name.rfind("L3", 0) == 0)
                t += ", snc_nodes " + std::to_string(snc);
        } else
            t += ", min_bandwidth " + value(o, "min_bandwidth", std::to_string(r.minBandwidth)) + ", bandwidth_gran "
                + value(o, "bandwidth_gran", std::to_string(r.bandwidthGran)) + ", max_bandwidth "
                + std::to_string(r.maxBandwidth) + ", delay_linear "
                + value(o, "delay_linear", r.delayLinear ? "1" : "0") + ", unit " + bandwidthUnitKey(r.bandwidthUnit);
        // CBQRI's budget and a control's own description, so that a replay shows the values as the live view did.
        if (r.budget > 0) t += ", budget " + std::to_string(r.budget) + ", budget_source " + r.budgetSource;
        if (const auto& d = r.description) {
            auto number = [&](const char* key, const std::optional<std::uint64_t>& v) {
                if (v) t += std::string(", ") + key + " " + std::to_string(*v);
            };
            auto text = [&](const char* key, const std::string& v) {
                // The items are comma-separated: a described text with a comma is not kept (it stays unknown).
                if (!v.empty() && v.find(',') == std::string::npos) t += std::string(", ") + key + " " + v;
            };
            text("described_in", d->resource);
            text("ctl_type", d->type);
            number("ctl_min", d->min);
            number("ctl_max", d->max);
            number("ctl_resolution", d->resolution);
            number("ctl_scale", d->scale);
            number("ctl_tolerance", d->tolerance);
            text("ctl_unit", d->unit);
            text("ctl_scope", d->scope);
        }
        t += "\n";
    }
    const auto& m = caps.monitoring;
    if (m.present) {
        t += "L3_MON: " + value(m.origins, "num_rmids", std::to_string(m.numRmids)) + " RMIDs, counter width "
            + std::to_string(m.counterWidth) + ", domains";
        for (int d : m.domains)
            t += " " + std::to_string(d);
        t += "\n";
    }
    return t;
}

namespace {

bool readUnsigned(std::string_view text, unsigned& out)
{
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

/// "NAME: 16 CLOS, domains 0 1, cbm_mask 11 bits, ..." -> the resource, or false when the line is not one.
bool parseResourceLine(const std::string& line, RecordedResource& out)
{
    const auto colon = line.find(": ");
    if (colon == std::string::npos || colon == 0) return false;
    ResourceCaps& r = out.caps;
    r.name = line.substr(0, colon);
    r.kind = r.name.rfind("L2", 0) == 0 || r.name.rfind("L3", 0) == 0 ? ResourceKind::Cache : ResourceKind::Bandwidth;
    std::istringstream items(line.substr(colon + 2));
    bool closids = false;
    for (std::string item; std::getline(items, item, ',');) {
        if (item.starts_with(' ')) item.erase(0, 1);
        if (item == "domains") continue; // none
        const auto space = item.find(' ');
        if (space == std::string::npos) return false;
        const std::string key = item.substr(0, space);
        const std::string value = item.substr(space + 1);
        unsigned n = 0;
        std::uint64_t bytes = 0;
        auto described = [&]() -> api::ControlDescription& {
            if (!r.description) {
                r.description.emplace();
                r.description->name = r.name;
            }
            return *r.description;
        };
        auto wholeNumber = [&](std::optional<std::uint64_t>& field) {
            std::uint64_t v = 0;
            const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
            if (ec != std::errc() || end != value.data() + value.size()) return false;
            field = v;
            return true;
        };
        if (key == "budget_source") {
            r.budgetSource = value;
        } else if (key == "described_in") {
            described().resource = value;
        } else if (key == "ctl_type") {
            described().type = value;
        } else if (key == "ctl_unit") {
            described().unit = value;
        } else if (key == "ctl_scope") {
            described().scope = value;
        } else if (key == "ctl_min" || key == "ctl_max" || key == "ctl_resolution" || key == "ctl_scale"
            || key == "ctl_tolerance") {
            auto& d = described();
            auto& field = key == "ctl_min" ? d.min
                : key == "ctl_max"         ? d.max
                : key == "ctl_resolution"  ? d.resolution
                : key == "ctl_scale"       ? d.scale
                                           : d.tolerance;
            if (!wholeNumber(field)) return false;
        } else if (key == "budget") {
            std::optional<std::uint64_t> budget;
            if (!wholeNumber(budget)) return false;
            r.budget = *budget;
        } else if (key == "domains") {
            std::istringstream ids(value);
            for (std::string id; ids >> id;) {
                if (!readUnsigned(id, n)) return false;
                r.domains.push_back(static_cast<int>(n));
            }
        } else if (key == "unit") {
            r.bandwidthUnit = bandwidthUnitFromKey(value);
            r.mbpsMode = r.bandwidthUnit == BandwidthUnit::MiBps;
            out.unitRecorded = true;
        } else if (value == "CLOS" && (key == "unknown" || readUnsigned(key, n))) {
            r.numClosids = key == "unknown" ? 0 : n; // unknown: recorded from a tree without num_closids
            closids = true;
        } else if (value == "unknown") {
            continue; // the recording tree lacked this info file: the value stays unknown
        } else if (key == "cbm_mask" && value.ends_with(" bits")
            && readUnsigned(value.substr(0, value.size() - 5), n)) {
            r.cbmBits = n;
        } else if (key == "bytes_per_bit") {
            const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), bytes);
            if (ec != std::errc() || end != value.data() + value.size()) return false;
            r.bytesPerBit = bytes;
        } else if (!readUnsigned(value, n)) {
            return false;
        } else if (key == "min_cbm_bits") {
            r.minCbmBits = n;
        } else if (key == "min_bandwidth") {
            r.minBandwidth = n;
        } else if (key == "bandwidth_gran") {
            r.bandwidthGran = n;
        } else if (key == "max_bandwidth") {
            r.maxBandwidth = n;
        } else if (key == "delay_linear") {
            r.delayLinear = n != 0;
        } else if (key == "snc_nodes") {
            out.sncNodes = n;
        } // other keys: written by a newer version, ignored
    }
    if (r.kind == ResourceKind::Bandwidth) {
        const auto control = api::bandwidthControlOf(r.name);
        r.role = control.role;
        r.region = control.region;
        if (r.description) r.infoDir = r.description->resource;
    }
    return closids;
}

} // namespace

std::vector<RecordedResource> parseCapabilitiesText(const std::string& text)
{
    std::vector<RecordedResource> out;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("L3_MON: ", 0) == 0) continue;
        RecordedResource r;
        if (parseResourceLine(line, r)) out.push_back(std::move(r));
    }
    return out;
}

} // namespace rdt
