// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <cstddef>
#include <string>

namespace rdt::agent {

/// The dashboard file --dashboard names, served at /dashboard: read only if it is a regular file of at most
/// kMaxDashboardBytes (a directory, /dev/zero or a FIFO is refused before any read, without blocking) and served
/// only if it is a Grafana dashboard's JSON model (an object with a "title" string and a "panels" or "rows" array),
/// so the endpoint never hands out some other file the agent can read (/etc/shadow is not JSON).
inline constexpr std::size_t kMaxDashboardBytes = 4u << 20;
Result<std::string> loadGrafanaDashboard(const std::string& path);

} // namespace rdt::agent
