// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <optional>
#include <string>

namespace rdt::session {

/// A private copy of a session and its write-ahead log, read instead of the original when reading the original
/// would create a `-shm` file beside it: a file with a `-wal` whose recorder is gone (killed, crashed, or a
/// copied pair). SQLite's WAL readers build the wal-index in `FILE-shm` (sqlite.org/walformat.html), so a reader
/// of the original would modify the directory; docs/SESSION-FORMAT.md promises readers never do. While a
/// recorder holds the file (SessionFileClaim's flock) its connection made the `-shm` already, and the original
/// is read as it is, live. The copy lives in a private temporary directory removed with this object.
class PrivateSessionCopy {
public:
    /// The copy to read, or nothing when `path` needs none (no -wal, or a live recorder holds it).
    static Result<std::optional<PrivateSessionCopy>> makeIfNeeded(const std::string& path);

    PrivateSessionCopy(PrivateSessionCopy&& other) noexcept;
    PrivateSessionCopy& operator=(PrivateSessionCopy&& other) noexcept;
    PrivateSessionCopy(const PrivateSessionCopy&) = delete;
    PrivateSessionCopy& operator=(const PrivateSessionCopy&) = delete;
    ~PrivateSessionCopy();

    const std::string& path() const { return m_path; }

private:
    PrivateSessionCopy() = default;
    void remove();
    std::string m_dir, m_path;
};

} // namespace rdt::session
