// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/OutputTarget.h"
#include "core/Result.h"
#include "core/UniqueFd.h"

#include <string>
#include <string_view>
#include <vector>

namespace rdt::session {

/// Whether the first bytes of a file (and, for a file whose data is all still in its write-ahead log, PATH-wal)
/// are an rdtscope session: an SQLite header with rdtscope's application_id (docs/SESSION-FORMAT.md).
bool looksLikeSession(std::string_view head, const std::string& path);

/// The output rule (core/OutputTarget.h) of every session writer: with --force only a session is replaced.
OutputRule sessionOutputRule(bool overwrite, std::vector<std::string> inputs = {});

/// One recorder's exclusive claim on the path of the session file it writes.
///
/// A session path is user input: `-o /dev/null --force` as root must not replace the system's /dev/null, and a
/// second `record --force` onto a file another recorder is still writing must not delete that recorder's data.
/// So the claim (1) applies the one output rule (sessionOutputRule: only a regular file, never an input of the
/// command, an existing file only with `overwrite` and only when it is a session), (2) refuses a file another
/// writer holds (an flock(2) LOCK_EX taken for the whole recording; SQLite's own locks are fcntl locks and do not
/// interact with it), and (3) creates the new file itself with O_CREAT|O_EXCL|O_NOFOLLOW so that nothing can be
/// slipped in between the check and the create. A new path is written in place, so a recording being made can be
/// followed and a killed one opened under its name. A session being replaced stays whole until the new one is
/// complete: the new one is written beside it (writePath(), "PATH.new-PID") and commit() renames it over the
/// old one; a recording that fails or is killed leaves the old session as it was. The lock is released when the
/// claim is destroyed.
class SessionFileClaim {
public:
    static Result<SessionFileClaim> take(
        const std::string& path, bool overwrite, const std::vector<std::string>& inputs = {});

    SessionFileClaim() = default; ///< holds nothing
    bool held() const { return m_fd.valid(); }
    /// Where the database is written: the path itself, or the file beside it that replaces it on commit().
    const std::string& writePath() const { return m_writePath; }
    bool replacing() const { return m_writePath != m_path; }
    /// A replacement: removes the old session's SQLite companions and renames writePath() over it. Call after
    /// the database at writePath() is closed. Nothing to do for a new path.
    Status commit();

private:
    UniqueFd m_fd; ///< the flock(2) goes with the descriptor
    std::string m_path, m_writePath;
};

} // namespace rdt::session
