// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Result.h"

#include <cstddef>
#include <string>

namespace rdt {

/// Reads a whole input file that a user names (a CPUID dump, a scenario, a lesson), bounded: it must be a
/// regular file (a FIFO would block and /dev/zero would never end) of at most `maxBytes`, checked before
/// reading and again while reading (the file may grow). `what` names the input in messages ("CPUID dump").
Result<std::string> readBoundedFile(const std::string& path, std::size_t maxBytes, const std::string& what);

/// The first `bytes` bytes (fewer when the file is shorter) of an input file that must be a regular file, opened
/// the same way (a FIFO is refused at once, never waited on): how readers tell a file's kind by its magic.
Result<std::string> readFileHead(const std::string& path, std::size_t bytes, const std::string& what);

} // namespace rdt
