// SPDX-License-Identifier: GPL-3.0-or-later
#include "SummaryAggregator.h"

namespace rdt::session {

namespace {
constexpr std::uint64_t kNsPerS = 1000000000;
}

void SummaryAggregator::add(const RdtSample& s, std::int64_t groupId)
{
    for (int res : kResolutions) {
        const std::uint64_t bucket = s.timeNs / (static_cast<std::uint64_t>(res) * kNsPerS);
        auto& b = m_buckets[BucketKey { res, bucket, groupId, s.domain }];
        b.occupancy.add(static_cast<double>(s.occupancyBytes));
        b.total.add(s.mbmTotalBps);
        b.local.add(s.mbmLocalBps);
    }
}

std::vector<std::pair<BucketKey, BucketStats>> SummaryAggregator::takeComplete(std::uint64_t timeNs)
{
    std::vector<std::pair<BucketKey, BucketStats>> out;
    for (auto it = m_buckets.begin(); it != m_buckets.end();) {
        const auto res = static_cast<std::uint64_t>(std::get<0>(it->first));
        const std::uint64_t endNs = (std::get<1>(it->first) + 1) * res * kNsPerS;
        if (endNs <= timeNs) {
            out.emplace_back(it->first, it->second);
            it = m_buckets.erase(it);
        } else {
            ++it;
        }
    }
    return out;
}

std::vector<std::pair<BucketKey, BucketStats>> SummaryAggregator::takeAll()
{
    std::vector<std::pair<BucketKey, BucketStats>> out(m_buckets.begin(), m_buckets.end());
    m_buckets.clear();
    return out;
}

void SummaryAggregator::restore(const std::vector<std::pair<BucketKey, BucketStats>>& buckets)
{
    for (const auto& [k, v] : buckets)
        m_buckets.emplace(k, v);
}

} // namespace rdt::session
