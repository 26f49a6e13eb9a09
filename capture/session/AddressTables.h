// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SessionFile.h"
#include "SessionTypes.h"

#include <vector>

namespace rdt::session {

/// What the session keeps to name code addresses: the profiled processes' address maps (table `address_maps`)
/// and the symbols of their binaries (table `symbols`).
class AddressTables {
public:
    explicit AddressTables(SessionFile& file);
    Result<std::vector<AddressMap>> addressMaps();
    Result<std::vector<Symbol>> symbols();

private:
    SessionFile& m_file;
};

} // namespace rdt::session
