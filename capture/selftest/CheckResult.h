// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace rdt::selftest {

enum class Verdict { Pass, Fail, Skip };

inline const char* verdictName(Verdict v)
{
    return v == Verdict::Pass ? "PASS" : v == Verdict::Fail ? "FAIL" : "SKIP";
}

/// The outcome of one check of the self-test: what it checked, the section of the kernel's
/// Documentation/filesystems/resctrl.rst or of the Intel SDM that defines the behaviour, and why it failed or was
/// skipped (empty for a pass; a pass may carry the measured figures in `detail`).
struct CheckResult {
    std::string name; ///< e.g. "cat-fence-bounds-occupancy"
    std::string section; ///< e.g. "resctrl.rst \"Cache Bit Masks (CBM)\""
    Verdict verdict = Verdict::Skip;
    std::string reason; ///< FAIL / SKIP: why, with the fix when there is one; PASS: what was measured (may be empty)
};

} // namespace rdt::selftest
