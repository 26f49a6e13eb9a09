// SPDX-License-Identifier: GPL-3.0-or-later
#include "PercentileSketch.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rdt::compare {

void PercentileSketch::add(double value)
{
    if (!std::isfinite(value)) return;
    if (m_count == 0 || value < m_min) m_min = value;
    if (m_count == 0 || value > m_max) m_max = value;
    ++m_count;
    m_sum += value;
    if (!m_spilled && m_values.size() < kExact) {
        m_values.push_back(value);
        return;
    }
    if (!m_spilled) spill();
    addSpilled(value);
}

void PercentileSketch::addSpilled(double value)
{
    if (value <= 0) {
        ++m_zeros;
        return;
    }
    const int b = bucketOf(value);
    if (m_buckets.empty()) {
        m_buckets.assign(1, 0);
        m_offset = b;
    } else if (b < m_offset) {
        m_buckets.insert(m_buckets.begin(), static_cast<std::size_t>(m_offset - b), 0);
        m_offset = b;
    } else if (b - m_offset >= static_cast<int>(m_buckets.size())) {
        m_buckets.resize(static_cast<std::size_t>(b - m_offset + 1), 0);
    }
    ++m_buckets[static_cast<std::size_t>(b - m_offset)];
}

int PercentileSketch::bucketOf(double value) const
{
    // The exponent and the top kMantissaBits bits of the mantissa of a positive IEEE double, read from its bits:
    // 2^kMantissaBits buckets per power of two, no std::log per value (this runs for every sample of an hour).
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return static_cast<int>(bits >> (52 - kMantissaBits));
}

double PercentileSketch::valueOf(int bucket) const
{
    // The middle of the bucket: at most half a bucket (1 / 2^(kMantissaBits+1) relative) off any value in it.
    const std::uint64_t bits
        = (static_cast<std::uint64_t>(bucket) << (52 - kMantissaBits)) | (std::uint64_t { 1 } << (51 - kMantissaBits));
    double v = 0;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

void PercentileSketch::spill()
{
    std::vector<double> values;
    values.swap(m_values);
    m_spilled = true;
    for (double v : values)
        addSpilled(v);
}

double PercentileSketch::percentile(double q) const
{
    if (m_count == 0) return 0;
    q = std::clamp(q, 0.0, 1.0);
    const auto rank
        = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(m_count))));
    if (!m_spilled) {
        std::vector<double> v = m_values;
        auto nth = v.begin() + static_cast<std::ptrdiff_t>(rank - 1);
        std::nth_element(v.begin(), nth, v.end());
        return *nth;
    }
    if (rank <= m_zeros) return std::min(0.0, m_max);
    std::uint64_t seen = m_zeros;
    for (std::size_t i = 0; i < m_buckets.size(); ++i) {
        seen += m_buckets[i];
        if (seen >= rank) return std::clamp(valueOf(m_offset + static_cast<int>(i)), m_min, m_max);
    }
    return m_max;
}

} // namespace rdt::compare
