// SPDX-License-Identifier: GPL-3.0-or-later
#include "MachineCodec.h"

#include <cerrno>

namespace rdt::remote {

namespace {
constexpr int kMaxLines = 10'000;
}

void toWire(const CapabilityReport& in, pb::MachineReport& out)
{
    out.set_source(in.source);
    out.set_rdt_why_not(in.rdtWhyNot);
    out.set_environment_probed(in.environmentProbed);
    for (const auto& l : in.lines) {
        auto* w = out.add_lines();
        w->set_group(l.group);
        w->set_name(l.name);
        w->set_value(l.value);
        w->set_present(l.present);
        w->set_origin(l.origin);
        w->set_sdm_section(l.sdmSection);
        w->set_why_not(l.whyNot);
    }
}

Result<CapabilityReport> fromWire(const pb::MachineReport& in)
{
    if (in.lines_size() > kMaxLines)
        return errnoError(EPROTO,
            "the agent described its machine in " + std::to_string(in.lines_size()) + " lines (at most "
                + std::to_string(kMaxLines) + ")",
            "install the same rdtscope release on both machines");
    CapabilityReport r;
    r.source = in.source();
    r.rdtWhyNot = in.rdt_why_not();
    r.environmentProbed = in.environment_probed();
    for (const auto& l : in.lines())
        r.lines.push_back({ l.group(), l.name(), l.value(), l.present(), l.origin(), l.sdm_section(), l.why_not() });
    return r;
}

} // namespace rdt::remote
