// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ResctrlTree.h"
#include "Schemata.h"

#include <string>

namespace rdt {

/// A control group's allocation as its schemata file holds it (KDOC "Schemata files"): read, and changed by one
/// merged multi-line write that is read back value by value. Callers hold ResctrlBackend's mutex.
class ResctrlSchemataEditor {
public:
    explicit ResctrlSchemataEditor(ResctrlTree& tree);

    Result<Schemata> read(const std::string& path);
    Status apply(const std::string& path, const Schemata& change);

private:
    ResctrlTree& m_tree;
};

} // namespace rdt
