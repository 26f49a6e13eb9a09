// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Sqlite.h"

#include <cstdint>

namespace rdt::session {

/// PRAGMA application_id of a session file: "RDTS". A SQLite file with another id is a foreign file.
inline constexpr std::int32_t kApplicationId = 0x52445453;
/// PRAGMA user_version and meta.schema_version. Readers refuse newer majors with a clear message.
inline constexpr int kSchemaVersion = 1;
/// Conventional file name extension.
inline constexpr const char* kSessionExtension = ".rdts";

/// Creates every table (docs/SESSION-FORMAT.md documents them) and stamps the version; one transaction.
Status createSchema(Database& db);

/// Tables a version-1 file must have; the reader reports the missing ones and reads the rest.
const char* const* requiredTables();

} // namespace rdt::session
