// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace rdt::session {

/// The name of an SQLite VFS that wraps the default one for reading sessions: a database file shorter than
/// its header announces (a recording or a copy cut short) reports the announced size, and the missing pages
/// read as zeros, which SQLite then reports as damage (SQLITE_CORRUPT) only where they are used. Without it
/// SQLite refuses the whole file unless `PRAGMA writable_schema` is on, and that pragma is not for untrusted
/// files (defensive mode forbids it). Registered on first use; thread-safe.
const char* truncationVfsName();

} // namespace rdt::session
