// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace rdt::session {

/// Move-only owner of one SQLite connection. Every failure becomes an Error that names the file, SQLite's own
/// text and what to do (disk full, corrupt image, foreign file...).
class Database {
public:
    enum class Mode { Create, ReadWrite, ReadOnly };

    Database() = default;
    ~Database();
    Database(Database&& other) noexcept;
    Database& operator=(Database&& other) noexcept;
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    static Result<Database> open(const std::string& path, Mode mode);
    /// A private in-memory copy of a database image (fuzzing, tests); WAL header bytes are patched to rollback
    /// mode because an in-memory image cannot have a -wal file.
    static Result<Database> openImage(const std::vector<std::uint8_t>& bytes);

    Status exec(std::string_view sql);
    /// Turns the last SQLite error into an Error: "what: SQLite's message (advice for that code)".
    Error lastError(const std::string& what) const;
    int lastErrorCode() const;
    /// Caps the virtual-machine steps of each statement so a crafted file cannot make a query spin for ever.
    void setStepBudget(int steps);
    bool budgetExceeded() const { return m_budgetExceeded; }

    sqlite3* handle() const { return m_db; }
    const std::string& path() const { return m_path; }
    bool isOpen() const { return m_db != nullptr; }
    void close();

private:
    sqlite3* m_db = nullptr;
    std::string m_path;
    int m_budget = 0;
    int m_used = 0;
    bool m_budgetExceeded = false;
    static int progress(void* self);
    /// Settings for reading a database that may have been crafted (read-only connections and images).
    void distrustContent();
};

/// Move-only prepared statement with typed bind/column helpers (1-based binds, 0-based columns, as SQLite).
class Statement {
public:
    Statement() = default;
    ~Statement();
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    static Result<Statement> prepare(Database& db, std::string_view sql);

    Statement& bind(int index, std::int64_t v);
    Statement& bind(int index, std::uint64_t v) { return bind(index, static_cast<std::int64_t>(v)); }
    Statement& bind(int index, int v) { return bind(index, static_cast<std::int64_t>(v)); }
    Statement& bind(int index, double v);
    Statement& bind(int index, std::string_view v);
    Statement& bind(int index, const std::string& v) { return bind(index, std::string_view(v)); }
    Statement& bind(int index, const char* v) { return bind(index, std::string_view(v)); }
    Statement& bindBlob(int index, const void* data, std::size_t size);
    Statement& bindNull(int index);

    /// Executes one step: true when a row is ready, false when done; an Error on failure.
    Result<bool> step();
    /// Runs to completion (INSERT/UPDATE) and resets for the next use.
    Status run();
    void reset();

    // Typed reads of the current row. SQLite keeps any value in any column, so each read checks the value's
    // storage class and range: a whole number where one belongs (INTEGER, within the type; i64 and its narrower
    // kinds), a finite number (f64). A value that fails is not converted into another number: the read returns 0
    // and the row is marked damaged (rowDamage()), so the caller reports it and skips the row or shows the value
    // as missing.
    std::int64_t i64(int col) const;
    std::uint64_t u64(int col) const; ///< 0 .. 2^63-1 (SQLite has no unsigned integers)
    std::uint64_t bits64(int col) const; ///< any integer, as the 64-bit pattern it was written from (addresses)
    int i32(int col) const;
    std::uint32_t u32(int col) const;
    double f64(int col) const;
    std::string text(int col) const;
    std::vector<std::uint8_t> blob(int col) const;
    bool isNull(int col) const;
    /// The first value of the current row that failed its read, as "column NAME holds VALUE, not TYPE";
    /// empty when every read so far was good. Cleared by step().
    const std::string& rowDamage() const { return m_rowDamage; }

private:
    /// The integer at `col` when it is one and within [lo, hi]; otherwise records the damage and returns 0.
    std::int64_t checkedInteger(int col, std::int64_t lo, std::int64_t hi, const char* what) const;
    void noteDamage(int col, const char* what) const;

    sqlite3_stmt* m_stmt = nullptr;
    Database* m_db = nullptr;
    mutable std::string m_rowDamage;
};

/// Advice for a SQLite primary result code (SQLITE_FULL, SQLITE_CORRUPT, SQLITE_NOTADB, ...).
std::string sqliteAdvice(int code);
/// True for the codes that mean "the file is damaged or is not a database".
bool isCorruption(int code);

} // namespace rdt::session
