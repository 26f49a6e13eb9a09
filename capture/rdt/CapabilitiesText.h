// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtBackend.h"

#include <string>
#include <vector>

namespace rdt {

/// The machine's RDT resources as a session stores them (machine.topology; docs/SESSION-FORMAT.md): one line per
/// resource with its CLOS count, domains and mask or bandwidth rules, then L3_MON's RMIDs and counter width. The
/// CLI's recorder and the GUI's write the same text.
std::string formatCapabilitiesText(const Capabilities& caps);

/// One resource line of that text read back: the rules a replay shows recorded values with (resctrl's, from the
/// machine that recorded them, which a CPUID snapshot alone cannot tell: a percent MB and AMD's 1/8 GB/s both
/// live in a resource named "MB").
struct RecordedResource {
    ResourceCaps caps;
    bool unitRecorded = false; ///< sessions written before the unit was part of the line lack it
    unsigned sncNodes = 1; ///< Intel SNC: sub-NUMA nodes per L3 domain (recorded since this version; 1 before)
};

/// The resource lines of a session's topology text (L3_MON and lines it cannot read are skipped: the text is
/// informative, a damaged one costs only the replay's units).
std::vector<RecordedResource> parseCapabilitiesText(const std::string& text);

} // namespace rdt
