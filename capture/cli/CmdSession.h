// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/SessionReader.h"

#include <memory>
#include <string>
#include <vector>

namespace rdt::cli {

/// Opens a session for replay/summary/export; prints the reason and returns null when nothing can be read.
std::unique_ptr<session::SessionReader> openSessionForCli(const char* command, const std::string& path);
/// Prints the reader's problems from index `from` on stderr ("FILE: problem"); returns how many there are now.
std::size_t printSessionIssues(const char* command, const session::SessionReader& reader, std::size_t from = 0);
/// Exit code after reading a session: 1 when it was damaged, foreign or newer than this tool reads (the
/// readable part has been printed), 0 otherwise (a recording that was only not closed cleanly is fine).
/// 1 when the file is damaged (rows could not be read) or newer than this build understands, else 0. With
/// `salvage` the user accepted a partial read: damage alone then exits 0 (the loss was printed on stderr).
int sessionExitCode(const session::SessionReader& reader, bool salvage = false);
/// Seconds into the session -> session time ns (clamped at 0).
std::uint64_t sessionTimeNs(const session::SessionReader& reader, double seconds);

} // namespace rdt::cli
