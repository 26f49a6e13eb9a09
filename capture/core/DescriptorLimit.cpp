// SPDX-License-Identifier: GPL-3.0-or-later
#include "DescriptorLimit.h"

#include <sys/resource.h>

namespace rdt {

namespace {

std::uint64_t asLimit(rlim_t v)
{
    return v == RLIM_INFINITY ? UINT64_MAX : static_cast<std::uint64_t>(v);
}

} // namespace

std::uint64_t raiseDescriptorLimit()
{
    struct rlimit rl { };
    if (::getrlimit(RLIMIT_NOFILE, &rl) != 0) return 0;
    if (rl.rlim_cur != rl.rlim_max) {
        struct rlimit raised = rl;
        raised.rlim_cur = rl.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) rl = raised;
    }
    return asLimit(rl.rlim_cur);
}

std::uint64_t descriptorLimit()
{
    struct rlimit rl { };
    if (::getrlimit(RLIMIT_NOFILE, &rl) != 0) return 0;
    return asLimit(rl.rlim_cur);
}

} // namespace rdt
