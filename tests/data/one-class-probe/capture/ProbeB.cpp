// SPDX-License-Identifier: GPL-3.0-or-later
#include "Probe.h"
int Probe::second()
{
    return 2;
}
