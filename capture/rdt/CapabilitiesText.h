// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtBackend.h"

#include <string>

namespace rdt {

/// The machine's RDT resources as a session stores them (machine.topology; docs/SESSION-FORMAT.md): one line per
/// resource with its CLOS count, domains and mask or bandwidth rules, then L3_MON's RMIDs and counter width. The
/// CLI's recorder and the GUI's write the same text.
std::string formatCapabilitiesText(const Capabilities& caps);

} // namespace rdt
