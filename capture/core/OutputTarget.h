// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rdt {

/// What a command may write at the path of its `-o` (docs/SAFE-WRITES.md "Output files"). One rule for every
/// writer: record, import, sweep/advise --record (sessions), export, diff, info --save-cpuid.
struct OutputRule {
    std::string kind; ///< what the command writes, for the messages: "session file", "CSV export"
    /// Whether an existing regular file is one of `kind`, from its first bytes (up to kOutputHeadBytes, fewer
    /// when the file is shorter) and its path (a session's WAL lives beside it). Only asked with `force`.
    std::function<bool(std::string_view head, const std::string& path)> isOwnKind;
    bool force = false; ///< --force: an existing file of `kind` may be replaced
    bool hasForce = true; ///< the command offers --force (the advice mentions it only then)
    std::vector<std::string> inputs; ///< the command's own inputs: never written, --force or not ("-" = stdin)
};

/// How many bytes of an existing file OutputRule::isOwnKind sees.
inline constexpr std::size_t kOutputHeadBytes = 4096;

/// Whether the target exists (then the rule allowed replacing it).
struct OutputTarget {
    bool exists = false;
};

/// Kinds told by their first bytes, for OutputRule::isOwnKind: a text whose first line is `line` (a CSV header),
/// and a JSON document whose first member is "format": `name` (rdtscope's JSON outputs all start so).
bool headStartsWithLine(std::string_view head, std::string_view line);
bool headIsJsonFormat(std::string_view head, std::string_view name);

/// Checks `path` against the rule, without ever opening anything but a regular file (a FIFO never blocks):
/// refused are an empty name, anything that is not a regular file (FIFO, device, directory, socket, symbolic
/// link), the same file (inode) as one of the inputs, an existing file without `force`, and with `force` a file
/// that is not of the rule's kind. Each refusal says why and what to do.
Result<OutputTarget> checkOutputTarget(const std::string& path, const OutputRule& rule);

} // namespace rdt
