// SPDX-License-Identifier: GPL-3.0-or-later
#include "Commands.h"

namespace rdt::cli {

// One declaration and one table row per command; each command's code lives in Cmd<Name>.cpp.

const std::vector<Command>& commands()
{
    static const std::vector<Command> table = {
    };
    return table;
}

} // namespace rdt::cli
