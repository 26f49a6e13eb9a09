// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli: the Qt-free command-line face of the engine (links `capture` only).
#include "BuildInfo.h"
#include "CmdRdtSource.h"
#include "Commands.h"
#include "protocol/AgentUrl.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

using namespace rdt::cli;

static std::string remoteCommandNames()
{
    std::string names;
    for (const auto& c : commands())
        if (c.remote) names += (names.empty() ? "" : ", ") + std::string(c.name);
    return names;
}

static void printUsage(std::FILE* out)
{
    std::fprintf(out, "usage: rdtscope-cli [--connect URL [--agent PATH]] COMMAND [OPTIONS]\n\nCommands:\n");
    for (const auto& c : commands())
        std::fprintf(out, "  %s\n", c.synopsis);
    std::fprintf(out,
        "\n--connect URL runs the command on an rdtscope-agent: ssh://[USER@]HOST[:PORT] (the system ssh runs\n"
        "  rdtscope-agent --stdio there), unix:PATH (a local agent's socket) or local (pkexec). Commands that\n"
        "  can: %s.\n"
        "--agent PATH names rdtscope-agent on the server when it is not on PATH or in .../libexec/rdtscope.\n"
        "\nRun 'rdtscope-cli COMMAND --help' for a command's options.\n"
        "Exit codes: 0 ok, 1 the command failed, 2 usage error, 3 hardware or kernel interface unavailable.\n",
        remoteCommandNames().c_str());
}

/// A full disk or a failing pipe on stdout must not look like success (`replay > /dev/full` used to exit 0):
/// the output is what the user asked for.
static int checkOutput(int code)
{
    errno = 0;
    const bool flushed = std::fflush(stdout) == 0;
    if (flushed && !std::ferror(stdout)) return code;
    const int e = errno;
    std::fprintf(stderr, "rdtscope-cli: cannot write the output%s%s\n", e ? ": " : "", e ? std::strerror(e) : "");
    return code == ExitOk ? ExitFailure : code;
}

int main(int argc, char** argv)
{
    // Past a file size limit (`ulimit -f`) the kernel sends SIGXFSZ, whose default action kills the recorder
    // without a word; ignored, the write fails with EFBIG and the session writer reports it (setrlimit(2)).
    std::signal(SIGXFSZ, SIG_IGN);
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        printUsage(argc < 2 ? stderr : stdout);
        return argc < 2 ? ExitUsage : ExitOk;
    }
    if (std::strcmp(argv[1], "--version") == 0) {
        std::printf("rdtscope-cli " RDTSCOPE_VERSION " (git " RDTSCOPE_GIT_REVISION ")\n");
        return ExitOk;
    }
    // Global options come before the command: rdtscope-cli --connect URL [--agent PATH] monitor ...
    int first = 1;
    std::string agentPath;
    for (bool more = true; more && first < argc;) {
        const std::string arg = argv[first];
        more = false;
        for (const char* opt : { "--connect", "--agent" }) {
            const std::string o = opt;
            if (arg != o && arg.rfind(o + "=", 0) != 0) continue;
            const bool joined = arg != o;
            if (!joined && first + 1 >= argc) {
                std::fprintf(stderr, "rdtscope-cli: %s needs a value\n", opt);
                return ExitUsage;
            }
            const std::string value = joined ? arg.substr(o.size() + 1) : std::string(argv[first + 1]);
            (o == "--connect" ? setConnectUrl(value) : (void)(agentPath = value));
            first += joined ? 1 : 2;
            more = true;
        }
    }
    if (!agentPath.empty() && connectUrl().empty()) {
        std::fprintf(stderr, "rdtscope-cli: --agent PATH names the agent on the server: it goes with --connect URL\n");
        return ExitUsage;
    }
    setRemoteAgentPath(agentPath);
    if (!connectUrl().empty())
        if (auto url = rdt::protocol::parseAgentUrl(connectUrl()); !url) {
            std::fprintf(stderr, "rdtscope-cli: --connect: %s\n", url.error().toString().c_str());
            return ExitUsage;
        }
    if (first >= argc) {
        printUsage(stderr);
        return ExitUsage;
    }
    const std::string name = argv[first];
    for (const auto& c : commands()) {
        if (name != c.name) continue;
        if (!connectUrl().empty() && !c.remote) {
            std::fprintf(stderr,
                "rdtscope-cli: '%s' does not run through an agent (--connect) yet; commands that do: %s. Run it on "
                "the server itself, or without --connect.\n",
                name.c_str(), remoteCommandNames().c_str());
            return ExitUsage;
        }
        return checkOutput(c.run(std::vector<std::string>(argv + first + 1, argv + argc)));
    }
    std::fprintf(stderr, "rdtscope-cli: unknown command '%s'\n\n", name.c_str());
    printUsage(stderr);
    return ExitUsage;
}
