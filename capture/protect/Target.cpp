// SPDX-License-Identifier: GPL-3.0-or-later
#include "Target.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace rdt::protect {

double Target::slack(double value) const
{
    if (threshold == 0) return floor ? value : -value;
    return floor ? (value - threshold) / std::fabs(threshold) : (threshold - value) / std::fabs(threshold);
}

std::string Target::text() const
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%s%g", name.c_str(), floor ? ">=" : "<=", threshold);
    return buf;
}

Result<Target> parseTarget(const std::string& text, bool externalAllowed)
{
    const auto fail = [&](const std::string& why) -> Error {
        return errnoError(EINVAL, "target '" + text + "': " + why,
            "write ipc>=X, mpki<=X, occupancy>=BYTES (K/M/G) or, with --signal-cmd, NAME<=X or NAME>=X");
    };
    auto op = text.find(">=");
    bool floor = true;
    if (op == std::string::npos) {
        op = text.find("<=");
        floor = false;
    }
    if (op == std::string::npos || op == 0) return fail("no comparison");
    const std::string name = text.substr(0, op);
    std::string number = text.substr(op + 2);
    double scale = 1;
    if (!number.empty() && (number.back() == 'K' || number.back() == 'M' || number.back() == 'G')) {
        scale = number.back() == 'K' ? 1024.0 : number.back() == 'M' ? 1024.0 * 1024 : 1024.0 * 1024 * 1024;
        number.pop_back();
    }
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(number.c_str(), &end);
    if (number.empty() || end != number.c_str() + number.size() || errno != 0 || !std::isfinite(v) || v < 0)
        return fail("'" + text.substr(op + 2) + "' is not a non-negative number");
    Target t;
    t.name = name;
    t.floor = floor;
    t.threshold = v * scale;
    if (name == "ipc") {
        t.kind = SignalKind::Ipc;
        if (!floor) return fail("an IPC target is a floor (ipc>=X)");
    } else if (name == "mpki") {
        t.kind = SignalKind::Mpki;
        if (floor) return fail("an MPKI target is a ceiling (mpki<=X)");
    } else if (name == "occupancy") {
        t.kind = SignalKind::Occupancy;
        if (!floor) return fail("an occupancy target is a floor (occupancy>=BYTES)");
    } else if (externalAllowed) {
        t.kind = SignalKind::External;
    } else {
        return fail("'" + name + "' is not ipc, mpki or occupancy, and no --signal-cmd prints it");
    }
    if (scale != 1 && t.kind != SignalKind::Occupancy) return fail("size suffixes are for occupancy only");
    return t;
}

} // namespace rdt::protect
