// SPDX-License-Identifier: GPL-3.0-or-later
#include "PercentileSketch.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rdt {

namespace {
constexpr std::uint8_t kEncodingVersion = 1;
/// Bucket indices are the top bits of a positive finite double (sign 0, exponent below 0x7ff, kMantissaBits).
constexpr std::uint64_t kMaxBucket = std::uint64_t { 0x7ff } << PercentileSketch::kMantissaBits;

void putVarint(std::string& out, std::uint64_t v)
{
    while (v >= 0x80) {
        out += static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    out += static_cast<char>(v);
}

void putDouble(std::string& out, double v)
{
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    for (int i = 0; i < 8; ++i)
        out += static_cast<char>((bits >> (8 * i)) & 0xff);
}

struct Cursor {
    std::string_view in;
    std::size_t at = 0;
    bool ok = true;
    std::uint64_t varint()
    {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at >= in.size()) break;
            const auto b = static_cast<std::uint8_t>(in[at++]);
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80)) return v;
        }
        ok = false;
        return 0;
    }
    double number()
    {
        if (in.size() - at < 8) {
            ok = false;
            return 0;
        }
        std::uint64_t bits = 0;
        for (int i = 0; i < 8; ++i)
            bits |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(in[at++])) << (8 * i);
        double v = 0;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
};
} // namespace

PercentileSketch PercentileSketch::bucketed()
{
    PercentileSketch s;
    s.m_spilled = true;
    return s;
}

void PercentileSketch::merge(const PercentileSketch& other)
{
    if (other.m_count == 0) return;
    if (!other.m_spilled && !m_spilled && m_values.size() + other.m_values.size() <= kExact) {
        for (double v : other.m_values)
            add(v);
        return;
    }
    if (m_count == 0 || other.m_min < m_min) m_min = other.m_min;
    if (m_count == 0 || other.m_max > m_max) m_max = other.m_max;
    m_count += other.m_count;
    m_sum += other.m_sum;
    if (!m_spilled) spill();
    if (!other.m_spilled) {
        for (double v : other.m_values)
            addSpilled(v);
        return;
    }
    m_zeros += other.m_zeros;
    for (std::size_t i = 0; i < other.m_buckets.size(); ++i) {
        if (other.m_buckets[i] == 0) continue;
        const int b = other.m_offset + static_cast<int>(i);
        addSpilled(valueOf(b)); // lands in bucket b; then the rest of its count
        m_buckets[static_cast<std::size_t>(b - m_offset)] += other.m_buckets[i] - 1;
    }
}

std::string PercentileSketch::encode() const
{
    if (!m_spilled) {
        PercentileSketch copy = bucketed();
        copy.merge(*this);
        return copy.encode();
    }
    std::string out;
    out.reserve(32 + m_buckets.size());
    out += static_cast<char>(kEncodingVersion);
    putVarint(out, m_count);
    putVarint(out, m_zeros);
    putVarint(out, static_cast<std::uint64_t>(m_offset));
    putVarint(out, m_buckets.size());
    for (std::uint64_t n : m_buckets)
        putVarint(out, n);
    putDouble(out, m_sum);
    putDouble(out, m_min);
    putDouble(out, m_max);
    return out;
}

Result<PercentileSketch> PercentileSketch::decode(std::string_view bytes)
{
    auto bad = [](const std::string& why) { return makeError("a stored percentile sketch is malformed: " + why); };
    if (bytes.empty() || static_cast<std::uint8_t>(bytes[0]) != kEncodingVersion)
        return bad("unknown encoding version");
    Cursor c { bytes, 1 };
    PercentileSketch s = bucketed();
    s.m_count = c.varint();
    s.m_zeros = c.varint();
    const std::uint64_t offset = c.varint();
    const std::uint64_t n = c.varint();
    // Each bucket count takes at least one byte, so `n` cannot exceed what is left: no allocation beyond the input.
    if (!c.ok || offset >= kMaxBucket || n > kMaxBucket - offset || n > bytes.size() - c.at) return bad("bucket range");
    s.m_offset = static_cast<int>(offset);
    s.m_buckets.resize(n);
    std::uint64_t counted = s.m_zeros;
    for (auto& b : s.m_buckets) {
        b = c.varint();
        counted += b;
        if (counted < b) return bad("counts overflow");
    }
    s.m_sum = c.number();
    s.m_min = c.number();
    s.m_max = c.number();
    if (!c.ok || c.at != bytes.size()) return bad("length");
    if (counted != s.m_count) return bad("bucket counts do not add up to the count");
    if (s.m_count
        && !(std::isfinite(s.m_sum) && std::isfinite(s.m_min) && std::isfinite(s.m_max) && s.m_min <= s.m_max))
        return bad("sum, minimum or maximum");
    return s;
}

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

} // namespace rdt
