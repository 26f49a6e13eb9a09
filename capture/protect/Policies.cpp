// SPDX-License-Identifier: GPL-3.0-or-later
// The policies by name (Policy.h).
#include "FsmPolicy.h"
#include "ModelPolicy.h"
#include "SlackPolicy.h"
#include "StaticPolicy.h"

#include <cerrno>

namespace rdt::protect {

std::vector<std::string> policyNames()
{
    return { "static", "slack", "fsm", "model" };
}

Result<std::unique_ptr<Policy>> makePolicy(const std::string& name, const PolicyTuning& tuning)
{
    if (name == "static") return std::unique_ptr<Policy>(std::make_unique<StaticPolicy>(tuning));
    if (name == "slack") return std::unique_ptr<Policy>(std::make_unique<SlackPolicy>(tuning));
    if (name == "fsm") return std::unique_ptr<Policy>(std::make_unique<FsmPolicy>(tuning));
    if (name == "model") return std::unique_ptr<Policy>(std::make_unique<ModelPolicy>(tuning));
    return errnoError(EINVAL, "unknown policy '" + name + "'", "use static, slack, fsm or model (docs/PROTECT.md)");
}

} // namespace rdt::protect
