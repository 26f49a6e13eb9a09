// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "PrivateSessionCopy.h"
#include "Sqlite.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdt::session {

struct ReaderOptions {
    /// Cap on SQLite VM work per query, in units of 1000 instructions (0 = none). The fuzzer sets it so a
    /// crafted file cannot make one query run for minutes; real files need none.
    int stepBudget = 0;
};

/// A session file opened for reading, and what was found wrong in it: the database every table reader of the
/// session queries (SessionReader and the tables it delegates to), the issues they report in words a user can act
/// on, whether the file is damaged, its table list and its group ids. Not thread-safe.
class SessionFile {
public:
    SessionFile(std::string path, ReaderOptions options);

    /// The database read, and the private copy it may be (declared first, so the database closes before the copy
    /// is removed).
    void attach(Database db, std::optional<PrivateSessionCopy> copy = std::nullopt);
    Database& db() { return m_db; }
    const std::string& path() const { return m_path; }

    /// A problem found while reading, once per text, at most 50 (a replay polling a damaged range would otherwise
    /// add one per frame).
    void issue(std::string text);
    const std::vector<std::string>& issues() const { return m_issues; }
    void markDamaged() { m_damaged = true; }
    bool damaged() const { return m_damaged; }
    /// A row with a value of the wrong type or out of range (Statement::rowDamage): reported as damage with
    /// `where` (table and row) and the column, so the caller skips it. False for a good row.
    bool damagedRow(const Statement& st, const std::string& where);
    /// `e` prefixed with `what`, reported as an issue (and as damage when SQLite says the file is corrupt).
    Error noteFailure(const Error& e, const std::string& what);
    /// Re-arms the per-query work budget (ReaderOptions::stepBudget) before a query.
    void resetBudget();

    std::vector<std::string>& tables() { return m_tables; }
    bool hasTable(std::string_view name) const;

    void addGroupPath(std::int64_t id, const std::string& path) { m_groupPaths[id] = path; }
    /// The path of a group id; an unknown id is reported as damage and shown as "#ID".
    std::string groupPath(std::int64_t id);

    /// A time bound as SQLite's signed 64-bit integer ("until the end", UINT64_MAX, stays the largest value).
    static std::int64_t clampNs(std::uint64_t ns);

private:
    std::optional<PrivateSessionCopy> m_copy;
    Database m_db;
    std::string m_path;
    ReaderOptions m_options;
    std::vector<std::string> m_issues;
    std::vector<std::string> m_tables;
    std::map<std::int64_t, std::string> m_groupPaths;
    bool m_damaged = false;
};

} // namespace rdt::session
