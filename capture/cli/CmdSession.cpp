// SPDX-License-Identifier: GPL-3.0-or-later
#include "CmdSession.h"

#include "core/TerminalText.h"
#include "session/Schema.h"

#include <cstdio>

namespace rdt::cli {

std::unique_ptr<session::SessionReader> openSessionForCli(const char* command, const std::string& path)
{
    auto r = session::SessionReader::open(path);
    if (!r) {
        std::fprintf(stderr, "rdtscope-cli %s: %s\n", command, r.error().toString().c_str());
        return nullptr;
    }
    return std::move(r.value());
}

std::size_t printSessionIssues(const char* command, const session::SessionReader& reader, std::size_t from)
{
    const auto& issues = reader.issues();
    for (std::size_t i = from; i < issues.size(); ++i)
        std::fprintf(stderr, "rdtscope-cli %s: %s: %s\n", command, escapeControlCharacters(reader.path()).c_str(),
            escapeControlCharacters(issues[i]).c_str());
    return issues.size();
}

int sessionExitCode(const session::SessionReader& reader, bool salvage)
{
    if (reader.schemaVersion() > session::kSchemaVersion) return 1;
    return reader.damaged() && !salvage ? 1 : 0;
}

std::uint64_t sessionTimeNs(const session::SessionReader& reader, double seconds)
{
    const double ns = seconds * 1e9;
    const std::uint64_t origin = reader.originNs();
    if (ns >= 0) return origin + static_cast<std::uint64_t>(ns);
    const auto back = static_cast<std::uint64_t>(-ns);
    return back >= origin ? 0 : origin - back;
}

} // namespace rdt::cli
