// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the compare tests: running rdtscope-cli, a temporary directory, and the noisy-neighbour session pair
// recorded once per test binary.

#include "compare/Compare.h"

#include <string>

namespace rdt::compare::test {

/// Runs a shell command, returns stdout (stderr too when `mergeStderr`), sets *exitCode.
std::string run(const std::string& command, int* exitCode, bool mergeStderr = false);
/// rdtscope-cli ARGS (quoted by the caller).
std::string cli(const std::string& args, int* exitCode, bool mergeStderr = false);
/// A fresh directory under the build's temp area, removed at exit.
std::string tempDir();
std::string dataPath(const std::string& name); ///< tests/data/perf/NAME

/// Two sessions of the noisy-neighbour scenario, recorded with rdtscope-cli: `before` runs 0-19 s (both groups
/// may fill all 11 ways), `after` runs 0-60 s (fence at 20 s, MBA cap at 40 s).
struct SessionPair {
    std::string before, after;
};
const SessionPair& noisyNeighbourPair();

const DiffRow* findRow(
    const Comparison& c, Section s, const std::string& item, const std::string& metric, int domain = -1);

} // namespace rdt::compare::test
