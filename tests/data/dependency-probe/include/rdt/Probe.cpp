// SPDX-License-Identifier: GPL-3.0-or-later
// A deliberately wrong tree for the dependency-direction check: rdt/ reaching into the simulator must fail it.
#include "sim/SimMachine.h"
