// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SessionFile.h"
#include "SessionTypes.h"

#include <cstdint>
#include <vector>

namespace rdt::session {

/// The session's top-down (TMA) intervals (table `tma_intervals`), one row per metric per interval.
class TmaTable {
public:
    explicit TmaTable(SessionFile& file);
    Result<std::vector<TmaInterval>> tma(std::uint64_t fromNs, std::uint64_t toNs);

private:
    SessionFile& m_file;
};

} // namespace rdt::session
