// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace rdt {

/// Raises this process's soft RLIMIT_NOFILE to its hard limit (getrlimit(2)/setrlimit(2): an unprivileged
/// process may raise its soft limit up to the hard one). The default soft limit of 1024 is far below what a
/// sampler of many groups on many domains may use. Returns the soft limit in force afterwards.
std::uint64_t raiseDescriptorLimit();

/// The soft RLIMIT_NOFILE now (RLIM_INFINITY as UINT64_MAX).
std::uint64_t descriptorLimit();

} // namespace rdt
