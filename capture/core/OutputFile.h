// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/OutputTarget.h"
#include "core/Result.h"

#include <cstdio>
#include <string>
#include <string_view>

namespace rdt {

/// An output file written under a temporary name beside its target and renamed over it by commit(), so a
/// failure (full disk, a killed process, an error of the command) leaves the old file whole and nothing half
/// written under the target's name. The target passes checkOutputTarget() at create() and again at commit();
/// a target that did not exist is never replaced by the rename (renameat2 RENAME_NOREPLACE), so a file created
/// by someone else meanwhile survives. The temporary file is removed unless committed.
class OutputFile {
public:
    static Result<OutputFile> create(const std::string& path, const OutputRule& rule);

    OutputFile(OutputFile&& other) noexcept;
    OutputFile& operator=(OutputFile&& other) noexcept;
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;
    ~OutputFile(); ///< removes the temporary file when not committed

    std::FILE* stream() const { return m_stream; }
    const std::string& path() const { return m_path; }
    const std::string& temporaryPath() const { return m_tmp; }

    /// Flushes, fsyncs and renames into place; any write error seen on the stream fails it (the old file stays).
    Status commit();

private:
    OutputFile() = default;
    void discard();

    std::string m_path, m_tmp;
    OutputRule m_rule;
    std::FILE* m_stream = nullptr;
};

/// A whole text written by the rule: create, write, commit (an error leaves an old file as it was).
Status writeOutputFile(const std::string& path, std::string_view text, const OutputRule& rule);

} // namespace rdt
