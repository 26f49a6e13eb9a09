// SPDX-License-Identifier: GPL-3.0-or-later
// Names from files and the kernel on a terminal (core/TerminalText.h): no control character gets through.
#include "core/TerminalText.h"

#include <gtest/gtest.h>

#include <string>

TEST(TerminalText, ControlCharactersAreEscaped)
{
    // ESC [2J clears the screen, ESC ]0; retitles the window, CSI (U+009B) starts a control sequence too.
    EXPECT_EQ(rdt::escapeControlCharacters("evil\x1b[2Jname"), "evil\\x1b[2Jname");
    EXPECT_EQ(rdt::escapeControlCharacters("a\x1b]0;title\x07"), "a\\x1b]0;title\\x07");
    EXPECT_EQ(rdt::escapeControlCharacters("csi\xc2\x9b"
                                           "2J"),
        "csi\\u009b2J");
    EXPECT_EQ(rdt::escapeControlCharacters("del\x7f"), "del\\x7f");
    EXPECT_EQ(rdt::escapeControlCharacters("cr\rline"), "cr\\x0dline");
    EXPECT_EQ(rdt::escapeControlCharacters("two\nlines\tand\r", true), "two\nlines\tand\\x0d");
    EXPECT_EQ(rdt::escapeControlCharacters("two\nlines"), "two\\x0alines");
    // Printable text, UTF-8 included, passes unchanged.
    EXPECT_EQ(rdt::escapeControlCharacters("pod-ünïcode \xc3\xa9 100 %"), "pod-ünïcode \xc3\xa9 100 %");
    EXPECT_EQ(rdt::escapeControlCharacters(std::string("nul\0x", 5)), "nul\\x00x");
}
