// SPDX-License-Identifier: GPL-3.0-or-later
// Address maps and symbols of a session (docs/SESSION-FORMAT.md).
#include "AddressTables.h"

namespace rdt::session {

AddressTables::AddressTables(SessionFile& file)
    : m_file(file)
{ }

Result<std::vector<AddressMap>> AddressTables::addressMaps()
{
    m_file.resetBudget();
    auto st = Statement::prepare(m_file.db(),
        "SELECT time_ns, pid, start, end, pgoff, path, build_id FROM address_maps ORDER BY time_ns, rowid");
    if (!st) return m_file.noteFailure(st.error(), "address maps are unreadable");
    std::vector<AddressMap> out;
    for (;;) {
        auto row = st->step();
        if (!row) {
            m_file.noteFailure(row.error(), "address maps are partly unreadable");
            break;
        }
        if (!*row) break;
        // Addresses are 64-bit patterns (kernel addresses are above 2^63 and stored negative): bits64.
        AddressMap m { st->u64(0), st->i64(1), st->bits64(2), st->bits64(3), st->bits64(4), st->text(5), st->text(6) };
        if (m_file.damagedRow(*st, "address_maps row at time_ns " + st->text(0))) continue;
        out.push_back(std::move(m));
    }
    return out;
}

Result<std::vector<Symbol>> AddressTables::symbols()
{
    m_file.resetBudget();
    auto st = Statement::prepare(m_file.db(), "SELECT path, address, size, name FROM symbols ORDER BY path, address");
    if (!st) return m_file.noteFailure(st.error(), "symbols are unreadable");
    std::vector<Symbol> out;
    for (;;) {
        auto row = st->step();
        if (!row) {
            m_file.noteFailure(row.error(), "symbols are partly unreadable");
            break;
        }
        if (!*row) break;
        Symbol sym { st->text(0), st->bits64(1), st->bits64(2), st->text(3) };
        if (m_file.damagedRow(*st, "symbols row (" + sym.path + ", address " + st->text(1) + ")")) continue;
        out.push_back(std::move(sym));
    }
    return out;
}

} // namespace rdt::session
