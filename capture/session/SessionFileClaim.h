// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "core/UniqueFd.h"

#include <string>

namespace rdt::session {

/// One recorder's exclusive claim on the path of the session file it writes.
///
/// A session path is user input: `-o /dev/null --force` as root must not replace the system's /dev/null, and a
/// second `record --force` onto a file another recorder is still writing must not delete that recorder's data.
/// So the claim (1) refuses anything at the path that is not a regular file, whatever --force says, (2) refuses
/// an existing file without `overwrite`, (3) refuses a file another writer holds (an flock(2) LOCK_EX taken for
/// the whole recording; SQLite's own locks are fcntl locks and do not interact with it), and (4) creates the new
/// file itself with O_CREAT|O_EXCL|O_NOFOLLOW so that nothing can be slipped in between the check and the
/// create. The lock is released when the claim is destroyed.
class SessionFileClaim {
public:
    static Result<SessionFileClaim> take(const std::string& path, bool overwrite);

    SessionFileClaim() = default; ///< holds nothing
    bool held() const { return m_fd.valid(); }

private:
    explicit SessionFileClaim(int fd)
        : m_fd(fd)
    { }
    UniqueFd m_fd; ///< the flock(2) goes with the descriptor
};

} // namespace rdt::session
