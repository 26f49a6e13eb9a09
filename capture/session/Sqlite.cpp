// SPDX-License-Identifier: GPL-3.0-or-later
#include "Sqlite.h"

#include "TruncationVfs.h"

#include <sqlite3.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <utility>

namespace rdt::session {

std::string sqliteAdvice(int code)
{
    switch (code & 0xff) {
    case SQLITE_FULL:
        return "the disk is full (or the file size limit was hit): free space and record again; everything "
               "committed before this point is kept";
    case SQLITE_IOERR:
        return "the operating system refused the write: check free space, the file size limit (ulimit -f), the "
               "disk and the kernel log";
    case SQLITE_CORRUPT:
        return "the file is damaged or truncated: the readable part is shown; re-copy it together with its "
               "-wal file if one exists";
    case SQLITE_NOTADB:
        return "this is not an rdtscope session file (nor any SQLite database), or its header is damaged";
    case SQLITE_CANTOPEN:
        return "check the path and its permissions";
    case SQLITE_READONLY:
        return "the file or its directory is read-only: copy it somewhere writable";
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return "another process holds the file: stop the other recorder first";
    case SQLITE_INTERRUPT:
        return "the query took too long on this file and was stopped (damaged file?)";
    default:
        return {};
    }
}

bool isCorruption(int code)
{
    const int primary = code & 0xff;
    return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB || primary == SQLITE_FORMAT || primary == SQLITE_RANGE
        || primary == SQLITE_INTERRUPT;
}

Database::~Database()
{
    close();
}

Database::Database(Database&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
    , m_path(std::move(other.m_path))
    , m_budget(other.m_budget)
{
    if (m_db && m_budget > 0) setStepBudget(m_budget);
}

Database& Database::operator=(Database&& other) noexcept
{
    if (this != &other) {
        close();
        m_db = std::exchange(other.m_db, nullptr);
        m_path = std::move(other.m_path);
        m_budget = other.m_budget;
        if (m_db && m_budget > 0) setStepBudget(m_budget);
    }
    return *this;
}

void Database::close()
{
    if (m_db) {
        // sqlite3_close_v2 defers the close until every statement is finalized, so a stray Statement is safe.
        sqlite3_close_v2(m_db);
        m_db = nullptr;
    }
}

namespace {

bool hasWalFile(const std::string& path)
{
    struct stat st { };
    return ::lstat((path + "-wal").c_str(), &st) == 0;
}

/// A file name as the path of an SQLite URI (sqlite.org/uri.html): '%', '?', '#' and non-printable bytes are
/// %-escaped; relative paths stay relative.
std::string uriPath(const std::string& path)
{
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (const char ch : path) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '%' || c == '?' || c == '#' || c <= 0x20 || c >= 0x7f) {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

} // namespace

Result<Database> Database::open(const std::string& path, Mode mode)
{
    Database db;
    db.m_path = path;
    int flags = SQLITE_OPEN_NOMUTEX;
    switch (mode) {
    case Mode::Create:
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        break;
    case Mode::ReadWrite:
        flags |= SQLITE_OPEN_READWRITE;
        break;
    case Mode::ReadOnly:
        flags |= SQLITE_OPEN_READONLY;
        break;
    }
    // Readers go through the truncation VFS so a file cut short shows its readable part (TruncationVfs.h).
    const char* vfs = mode == Mode::ReadOnly ? truncationVfsName() : nullptr;
    std::string name = path;
    if (mode == Mode::ReadOnly && !hasWalFile(path)) {
        // No -wal file: no writer has the file open (a WAL writer keeps its -wal while connected), so read it
        // as immutable: no locks, no -shm or -wal created next to it, and it works on read-only media.
        name = "file:" + uriPath(path) + "?immutable=1";
        flags |= SQLITE_OPEN_URI;
    }
    const int rc = sqlite3_open_v2(name.c_str(), &db.m_db, flags, vfs);
    if (rc != SQLITE_OK) {
        Error e = db.m_db ? db.lastError("cannot open " + path) : makeError("cannot open " + path + ": out of memory");
        return e;
    }
    sqlite3_extended_result_codes(db.m_db, 1);
    // A damaged file must not be able to ask for gigabytes: cap strings/blobs at 256 MiB.
    sqlite3_limit(db.m_db, SQLITE_LIMIT_LENGTH, 256 * 1024 * 1024);
    if (mode == Mode::ReadOnly) db.distrustContent();
    return db;
}

Result<Database> Database::openImage(const std::vector<std::uint8_t>& bytes)
{
    Database db;
    db.m_path = ":memory-image:";
    if (sqlite3_open_v2(":memory:", &db.m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK)
        return makeError("cannot open an in-memory database");
    sqlite3_extended_result_codes(db.m_db, 1);
    sqlite3_limit(db.m_db, SQLITE_LIMIT_LENGTH, 64 * 1024 * 1024);
    const auto size = static_cast<sqlite3_int64>(bytes.size());
    auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(static_cast<sqlite3_uint64>(bytes.size() + 1)));
    if (!copy) return makeError("out of memory copying a database image");
    if (!bytes.empty()) std::memcpy(copy, bytes.data(), bytes.size());
    if (bytes.size() >= 20 && copy[18] == 2 && copy[19] == 2) {
        copy[18] = 1; // WAL -> rollback journal: an in-memory image has no -wal file
        copy[19] = 1;
    }
    const int rc = sqlite3_deserialize(db.m_db, "main", copy, size, size + 1,
        SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE | SQLITE_DESERIALIZE_READONLY);
    if (rc != SQLITE_OK) return db.lastError("cannot load the database image");
    db.distrustContent();
    return db;
}

void Database::distrustContent()
{
    // A session file is untrusted input. SQLite's guidance for such databases ("Defense Against The Dark Arts",
    // sqlite.org/security.html): defensive mode (no writable_schema, no shadow-table writes), schema functions
    // and virtual tables not trusted, and every cell's size checked against its page while reading.
    int unused = 0;
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_DEFENSIVE, 1, &unused);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &unused);
    (void)exec("PRAGMA cell_size_check=ON");
}

int Database::progress(void* self)
{
    auto* db = static_cast<Database*>(self);
    if (++db->m_used > db->m_budget) {
        db->m_budgetExceeded = true;
        return 1;
    }
    return 0;
}

void Database::setStepBudget(int steps)
{
    m_budget = steps;
    m_used = 0;
    m_budgetExceeded = false;
    // The handler runs every 1000 VM instructions; the budget counts those calls.
    sqlite3_progress_handler(m_db, steps > 0 ? 1000 : 0, steps > 0 ? &Database::progress : nullptr, this);
}

Status Database::exec(std::string_view sql)
{
    const std::string s(sql);
    char* err = nullptr;
    const int rc = sqlite3_exec(m_db, s.c_str(), nullptr, nullptr, &err);
    if (err) sqlite3_free(err);
    if (rc != SQLITE_OK) return lastError("SQL failed on " + m_path + " (" + s.substr(0, 60) + ")");
    return {};
}

int Database::lastErrorCode() const
{
    return m_db ? sqlite3_extended_errcode(m_db) : SQLITE_MISUSE;
}

Error Database::lastError(const std::string& what) const
{
    const int code = lastErrorCode();
    const char* msg = m_db ? sqlite3_errmsg(m_db) : "no database";
    const int sysErr = m_db ? sqlite3_system_errno(m_db) : 0;
    std::string text = what + ": " + msg;
    if (sysErr != 0
        && ((code & 0xff) == SQLITE_IOERR || (code & 0xff) == SQLITE_FULL || (code & 0xff) == SQLITE_CANTOPEN))
        text += " (" + std::string(std::strerror(sysErr)) + ")";
    Error e = makeError(std::move(text), sqliteAdvice(code));
    return e;
}

Statement::~Statement()
{
    if (m_stmt) sqlite3_finalize(m_stmt);
}

Statement::Statement(Statement&& other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr))
    , m_db(std::exchange(other.m_db, nullptr))
{ }

Statement& Statement::operator=(Statement&& other) noexcept
{
    if (this != &other) {
        if (m_stmt) sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
        m_db = std::exchange(other.m_db, nullptr);
    }
    return *this;
}

Result<Statement> Statement::prepare(Database& db, std::string_view sql)
{
    Statement st;
    st.m_db = &db;
    const int rc = sqlite3_prepare_v3(
        db.handle(), sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &st.m_stmt, nullptr);
    if (rc != SQLITE_OK) return db.lastError("cannot prepare a query on " + db.path());
    return st;
}

Statement& Statement::bind(int index, std::int64_t v)
{
    sqlite3_bind_int64(m_stmt, index, v);
    return *this;
}

Statement& Statement::bind(int index, double v)
{
    sqlite3_bind_double(m_stmt, index, v);
    return *this;
}

Statement& Statement::bind(int index, std::string_view v)
{
    sqlite3_bind_text64(m_stmt, index, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    return *this;
}

Statement& Statement::bindBlob(int index, const void* data, std::size_t size)
{
    sqlite3_bind_blob64(m_stmt, index, data, size, SQLITE_TRANSIENT);
    return *this;
}

Statement& Statement::bindNull(int index)
{
    sqlite3_bind_null(m_stmt, index);
    return *this;
}

Result<bool> Statement::step()
{
    if (!m_stmt || !m_db) return makeError("internal error: a session query was used before it was prepared");
    m_rowDamage.clear();
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    return m_db->lastError("query failed on " + m_db->path());
}

Status Statement::run()
{
    auto r = step();
    sqlite3_reset(m_stmt); // bindings are kept: every caller rebinds all parameters
    if (!r) return r.error();
    return {};
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

void Statement::noteDamage(int col, const char* what) const
{
    if (!m_rowDamage.empty()) return; // the first bad value of the row is the one reported
    const char* name = sqlite3_column_name(m_stmt, col);
    std::string value;
    switch (sqlite3_column_type(m_stmt, col)) {
    case SQLITE_INTEGER:
        value = std::to_string(sqlite3_column_int64(m_stmt, col));
        break;
    case SQLITE_FLOAT: {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", sqlite3_column_double(m_stmt, col));
        value = buf;
        break;
    }
    case SQLITE_TEXT:
        value = "text";
        break;
    case SQLITE_BLOB:
        value = "a blob";
        break;
    default:
        value = "NULL";
        break;
    }
    m_rowDamage
        = std::string("column ") + (name ? name : std::to_string(col).c_str()) + " holds " + value + ", not " + what;
}

std::int64_t Statement::checkedInteger(int col, std::int64_t lo, std::int64_t hi, const char* what) const
{
    if (sqlite3_column_type(m_stmt, col) != SQLITE_INTEGER) {
        noteDamage(col, what);
        return 0;
    }
    const std::int64_t v = sqlite3_column_int64(m_stmt, col);
    if (v < lo || v > hi) {
        noteDamage(col, what);
        return 0;
    }
    return v;
}

std::int64_t Statement::i64(int col) const
{
    return checkedInteger(col, INT64_MIN, INT64_MAX, "a whole number");
}

std::uint64_t Statement::u64(int col) const
{
    return static_cast<std::uint64_t>(checkedInteger(col, 0, INT64_MAX, "a whole number >= 0"));
}

std::uint64_t Statement::bits64(int col) const
{
    return static_cast<std::uint64_t>(checkedInteger(col, INT64_MIN, INT64_MAX, "a 64-bit value"));
}

int Statement::i32(int col) const
{
    return static_cast<int>(checkedInteger(col, INT32_MIN, INT32_MAX, "a 32-bit whole number"));
}

std::uint32_t Statement::u32(int col) const
{
    return static_cast<std::uint32_t>(checkedInteger(col, 0, UINT32_MAX, "a 32-bit whole number >= 0"));
}

double Statement::f64(int col) const
{
    const int type = sqlite3_column_type(m_stmt, col);
    const double v = sqlite3_column_double(m_stmt, col);
    if ((type != SQLITE_FLOAT && type != SQLITE_INTEGER) || !std::isfinite(v)) {
        noteDamage(col, "a finite number");
        return 0;
    }
    return v;
}
bool Statement::isNull(int col) const
{
    return sqlite3_column_type(m_stmt, col) == SQLITE_NULL;
}

std::string Statement::text(int col) const
{
    const auto* p = sqlite3_column_text(m_stmt, col);
    const int n = sqlite3_column_bytes(m_stmt, col);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n)) : std::string();
}

std::vector<std::uint8_t> Statement::blob(int col) const
{
    const auto* p = static_cast<const std::uint8_t*>(sqlite3_column_blob(m_stmt, col));
    const int n = sqlite3_column_bytes(m_stmt, col);
    return p ? std::vector<std::uint8_t>(p, p + n) : std::vector<std::uint8_t>();
}

} // namespace rdt::session
