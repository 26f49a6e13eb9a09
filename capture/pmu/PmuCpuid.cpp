// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuCpuid.h"

#include "Recipes.h"
#include "Tma.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace rdt::pmu {

PmuCpuid readPmuCpuid()
{
    PmuCpuid c;
#if defined(__x86_64__) || defined(__i386__)
    unsigned a = 0, b = 0, cx = 0, d = 0;
    if (!__get_cpuid(0, &a, &b, &cx, &d))
        return c;
    c.maxLeaf = a;
    c.intel = b == 0x756e6547 && d == 0x49656e69 && cx == 0x6c65746e; // "GenuineIntel"
    if (!c.intel)
        return c;
    if (c.maxLeaf >= 7 && __get_cpuid_count(7, 0, &a, &b, &cx, &d))
        c.archLbr = (d >> 19) & 1u;
    if (c.archLbr && c.maxLeaf >= 0x1c && __get_cpuid_count(0x1c, 0, &a, &b, &cx, &d))
        c.lbrDepth = lbrDepthFromCpuid(a);
    if (c.maxLeaf >= 0x23 && __get_cpuid_count(0x23, 0, &a, &b, &cx, &d))
        c.slotsPerCycle = tmaSlotsPerCycle(cx, true);
#endif
    return c;
}

} // namespace rdt::pmu
