// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Mean and percentiles of a long series in bounded memory. A one-hour session at 10 Hz holds 36,000 values per
// group and domain and 9.2 M per file (64 groups x 4 domains), so keeping every value for an exact p95 would cost
// ~110 MB per session. The sketch keeps the first kExact values exactly and, past that, counts values in
// buckets 1/128 of a power of two wide, taken from the double's exponent and top mantissa bits (relative error of
// a percentile < 0.4 %), in the spirit of DDSketch (Masson et al., VLDB 2019) and HdrHistogram. The mean, minimum
// and maximum are always exact.

#include "Result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rdt {

class PercentileSketch {
public:
    static constexpr std::size_t kExact = 4096;
    static constexpr int kMantissaBits = 7; ///< 128 buckets per power of two

    /// A sketch that buckets from the first value (no exact phase): what a session stores per series and minute,
    /// since 600 exact values would cost 4.8 kB where their buckets cost about a hundred bytes.
    static PercentileSketch bucketed();

    void add(double value);
    /// Adds everything `other` counted; the result is bucketed unless both are exact and fit kExact together.
    void merge(const PercentileSketch& other);
    /// The bucketed form as bytes (docs/SESSION-FORMAT.md "Minute sketches"); an exact sketch is bucketed first.
    std::string encode() const;
    /// Reads encode()'s bytes; an error for anything malformed (never a crash or a huge allocation).
    static Result<PercentileSketch> decode(std::string_view bytes);
    std::uint64_t count() const { return m_count; }
    double mean() const { return m_count ? m_sum / static_cast<double>(m_count) : 0.0; }
    double min() const { return m_min; }
    double max() const { return m_max; }
    /// Nearest-rank percentile, q in [0, 1]; exact while count() <= kExact.
    double percentile(double q) const;
    bool exact() const { return !m_spilled; }

private:
    void spill();
    void addSpilled(double value);
    int bucketOf(double value) const;
    double valueOf(int bucket) const;

    std::uint64_t m_count = 0;
    double m_sum = 0;
    double m_min = 0, m_max = 0;
    bool m_spilled = false;
    std::vector<double> m_values; ///< while exact
    std::uint64_t m_zeros = 0; ///< values <= 0 once spilled (rates and occupancy are never negative)
    int m_offset = 0; ///< bucket index of m_buckets[0]
    std::vector<std::uint64_t> m_buckets;
};

} // namespace rdt
