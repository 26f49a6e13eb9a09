// SPDX-License-Identifier: GPL-3.0-or-later
#include "AllocationLayout.h"

namespace rdt::api {

std::string CacheLayout::cacheName() const
{
    for (const char* cdp : { "CODE", "DATA" })
        if (resource.size() > 4 && resource.compare(resource.size() - 4, 4, cdp) == 0)
            return resource.substr(0, resource.size() - 4);
    return resource;
}

const CacheLayout* AllocationLayout::cache(const std::string& resource) const
{
    for (const auto& c : caches)
        if (c.resource == resource) return &c;
    return nullptr;
}

const BandwidthLayout* AllocationLayout::bandwidth(const std::string& resource) const
{
    for (const auto& b : bandwidths)
        if (b.resource == resource) return &b;
    return nullptr;
}

} // namespace rdt::api
