// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Simulated machines with a known answer, for holding blame to ground truth (tests/bench/bench_blame.cpp,
// docs/BLAME.md "Held to ground truth"): a two-socket machine (two L3 domains), a cache-sensitive victim on socket 0,
// and 4 to 8 other groups with neutral names (n1, n2, ...), each of a kind whose guilt is known by construction:
// streamers and cache thrashers that fill the victim's ways are culprits (one to three, sometimes in the default
// group); compute-bound and idle groups, streamers fenced into ways the victim does not use, and streamers or
// thrashers on the other socket are innocent. The same seed gives the same scenario text.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace rdt::blame {

/// One group of a generated scenario and whether it hurts the victim.
struct GeneratedGroup {
    std::string group; ///< path ("" = default group)
    std::string kind; ///< "streamer", "thrasher", "compute", "idle", "fenced streamer", "remote streamer", ...
    bool culprit = false;
};

struct GeneratedScenario {
    std::uint64_t seed = 0;
    std::string name; ///< "blame-<seed>"
    std::string text; ///< the scenario file (resources/scenarios/README.md format)
    std::string victim = "victim";
    std::vector<GeneratedGroup> groups; ///< every control group other than the victim, the default group included
    bool isCulprit(const std::string& group) const;
    /// Whether `group` is one of the generated groups at all (false for a name the scenario did not make).
    bool knows(const std::string& group) const;
};

class ScenarioGenerator {
public:
    explicit ScenarioGenerator(std::uint64_t seed)
        : m_seed(seed)
        , m_rng(seed)
    { }
    /// The next scenario (its seed: this generator's seed and its position).
    GeneratedScenario next();

private:
    /// Uniform in [lo, hi] from the generator's raw output (the same on every standard library, unlike
    /// std::uniform_int_distribution).
    unsigned pick(unsigned lo, unsigned hi);

    std::uint64_t m_seed;
    std::mt19937_64 m_rng;
    unsigned m_count = 0;
};

} // namespace rdt::blame
