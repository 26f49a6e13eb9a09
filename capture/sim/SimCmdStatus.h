// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace rdt::sim {

/// info/last_cmd_status of the emulated kernel (rdt_last_cmd_* in fs/resctrl): every command clears it, and a
/// failing one leaves its lines there.
class SimCmdStatus {
public:
    void set(const std::string& line) { m_text += line + "\n"; }
    void clear() { m_text.clear(); }
    /// What the file reads: "ok" when no command failed since the last clear.
    std::string read() const { return m_text.empty() ? std::string("ok\n") : m_text; }

private:
    std::string m_text;
};

} // namespace rdt::sim
