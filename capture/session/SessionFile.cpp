// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionFile.h"

#include <algorithm>
#include <limits>

namespace rdt::session {

SessionFile::SessionFile(std::string path, ReaderOptions options)
    : m_path(std::move(path))
    , m_options(options)
{ }

void SessionFile::attach(Database db, std::optional<PrivateSessionCopy> copy)
{
    m_db = std::move(db);
    m_copy = std::move(copy);
}

void SessionFile::issue(std::string text)
{
    constexpr std::size_t kMaxIssues = 50;
    static const std::string kMore = "more problems were found and not listed";
    if (std::find(m_issues.begin(), m_issues.end(), text) != m_issues.end()) return;
    if (m_issues.size() >= kMaxIssues) {
        if (m_issues.back() != kMore) m_issues.push_back(kMore);
        return;
    }
    m_issues.push_back(std::move(text));
}

bool SessionFile::damagedRow(const Statement& st, const std::string& where)
{
    if (st.rowDamage().empty()) return false;
    m_damaged = true;
    issue(where + ": " + st.rowDamage() + " (damaged file); the row is skipped");
    return true;
}

Error SessionFile::noteFailure(const Error& e, const std::string& what)
{
    if (isCorruption(m_db.lastErrorCode()) || m_db.budgetExceeded()) m_damaged = true;
    Error out = e;
    out.message = what + ": " + e.message;
    issue(out.toString());
    return out;
}

void SessionFile::resetBudget()
{
    if (m_options.stepBudget > 0) m_db.setStepBudget(m_options.stepBudget);
}

bool SessionFile::hasTable(std::string_view name) const
{
    return std::find(m_tables.begin(), m_tables.end(), name) != m_tables.end();
}

std::string SessionFile::groupPath(std::int64_t id)
{
    auto it = m_groupPaths.find(id);
    if (it != m_groupPaths.end()) return it->second;
    issue("rows refer to group id " + std::to_string(id) + ", which the group list does not have (damaged file)");
    return "#" + std::to_string(id);
}

std::int64_t SessionFile::clampNs(std::uint64_t ns)
{
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    return static_cast<std::int64_t>(ns > kMax ? kMax : ns);
}

} // namespace rdt::session
