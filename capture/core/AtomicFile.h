// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <string>
#include <string_view>

namespace rdt {

/// Replaces `file` with `text` so that a reader (or the next process after a crash) sees the old content or the
/// new one, never a mix: the text goes to FILE.tmp (O_NOFOLLOW, mode 0600), is fsync'd, and is renamed over the
/// file (rename(2) is atomic within a file system). The temporary file is removed on any failure. Callers that
/// may run concurrently hold their own lock around it (two writers would share FILE.tmp).
Status writeFileAtomically(const std::string& file, std::string_view text);

/// The directory part of a path ("." for a bare name, "/" for a file in the root).
std::string directoryOf(const std::string& file);

} // namespace rdt
