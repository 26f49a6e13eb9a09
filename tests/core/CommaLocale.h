// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A locale whose decimal point is a comma (de_DE), in effect for LC_NUMERIC while the object lives: the GUI
// calls setlocale, so engine code that follows LC_NUMERIC (printf, strtod) reads and writes "1,5" there. The
// locale is compiled into a temporary directory with localedef, so no installed locale is needed.

#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <stdlib.h>

namespace rdt::test {

class CommaLocale {
public:
    CommaLocale()
    {
        char tmpl[] = "/tmp/rdtscope-locale-XXXXXX";
        if (!::mkdtemp(tmpl)) return;
        m_dir = tmpl;
        const std::string cmd = "localedef -i de_DE -f UTF-8 " + m_dir + "/de_DE.UTF-8 >/dev/null 2>&1";
        if (std::system(cmd.c_str()) != 0) return;
        ::setenv("LOCPATH", m_dir.c_str(), 1);
        m_saved = std::setlocale(LC_NUMERIC, nullptr);
        // Only trusted when printf really prints a comma: otherwise a test under it would prove nothing.
        char probe[16];
        m_active = std::setlocale(LC_NUMERIC, "de_DE.UTF-8") != nullptr
            && std::snprintf(probe, sizeof probe, "%.1f", 1.5) > 0 && std::string(probe) == "1,5";
    }
    ~CommaLocale()
    {
        if (!m_saved.empty()) std::setlocale(LC_NUMERIC, m_saved.c_str());
        ::unsetenv("LOCPATH");
        std::error_code ec;
        if (!m_dir.empty()) std::filesystem::remove_all(m_dir, ec);
    }
    CommaLocale(const CommaLocale&) = delete;
    CommaLocale& operator=(const CommaLocale&) = delete;

    /// False when localedef could not build the locale (no locale sources): the caller skips its test.
    bool active() const { return m_active; }

private:
    std::string m_dir;
    std::string m_saved;
    bool m_active = false;
};

} // namespace rdt::test
