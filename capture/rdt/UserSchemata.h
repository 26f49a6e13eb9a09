// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Schemata.h"
#include "core/Result.h"

#include <string_view>

namespace rdt {

struct Capabilities;

/// A user's schemata change (`alloc set`, `monitor --at`, a typed line in the GUI), where a bandwidth value may
/// carry its unit: "MB:0=2GB/s;1=2048" on AMD, "MB:0=50%" on Intel, "MB:0=1024MiB/s" under mba_MBps. Each such
/// value becomes the raw value the kernel takes by the one rule parseBandwidthInput (BandwidthUnit.h), which
/// refuses a unit the resource does not use with advice (GB/s on an Intel percent machine). Raw values and cache
/// masks pass through; the result is then as strict as Schemata::parseStrict.
Result<Schemata> parseUserSchemata(std::string_view text, const Capabilities& caps);

/// The syntax check possible before the capabilities are known: parseStrict, with every bandwidth value that
/// starts with a number accepted whatever unit follows (parseUserSchemata judges the unit later).
Status checkUserSchemataSyntax(std::string_view text);

} // namespace rdt
