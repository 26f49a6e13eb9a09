// SPDX-License-Identifier: GPL-3.0-or-later
#include "UserIds.h"

#include <cerrno>

namespace rdt {

Result<std::vector<unsigned>> parseUserCpus(std::string_view text, const Capabilities& caps)
{
    if (caps.cpus.empty()) return parseIdList(text, kernelCpuBound());
    IdBound bound = cpuBound(std::uint64_t { caps.cpus.back() } + 1);
    bound.why = "this machine has CPUs " + formatIdList(caps.cpus);
    auto ids = parseIdList(text, bound);
    if (!ids) return ids;
    if (ids->empty()) return errnoError(EINVAL, "empty CPU list", "give CPUs such as 0-3,8");
    if (const auto offline = missingIds(*ids, caps.cpus); !offline.empty())
        return errnoError(EINVAL,
            std::string(offline.size() == 1 ? "CPU " : "CPUs ") + idExamples(offline)
                + (offline.size() == 1 ? " is" : " are") + " not online",
            "Can only assign online CPUs; online: " + formatIdList(caps.cpus));
    return ids;
}

Result<std::vector<unsigned>> parseUserPids(std::string_view text)
{
    auto ids = parseIdList(text, pidBound());
    if (!ids) return ids;
    if (ids->empty()) return errnoError(EINVAL, "empty PID list", "give PIDs such as 1234,5678");
    if (ids->front() == 0)
        return errnoError(EINVAL, "PID 0 is not a process", "resctrl reads 0 as the writing process itself");
    return ids;
}

} // namespace rdt
