// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli's command line: one CLI11 app, the global options, a subcommand per command of the table.
#include "BuildInfo.h"
#include "CmdRdtSource.h"
#include "Commands.h"
#include "Options.h"
#include "protocol/AgentUrl.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace rdt::cli {

namespace {

std::vector<std::string> g_commandArguments;

std::string remoteCommandNames()
{
    std::string names;
    for (const auto& c : commands())
        if (c.remote) names += (names.empty() ? "" : ", ") + std::string(c.name);
    return names;
}

/// A full disk or a failing pipe on stdout must not look like success (`replay > /dev/full` used to exit 0):
/// the output is what the user asked for.
int checkOutput(int code)
{
    errno = 0;
    const bool flushed = std::fflush(stdout) == 0;
    if (flushed && !std::ferror(stdout)) return code;
    const int e = errno;
    std::fprintf(stderr, "rdtscope-cli: cannot write the output%s%s\n", e ? ": " : "", e ? std::strerror(e) : "");
    return code == ExitOk ? ExitFailure : code;
}

/// "rdtscope-cli groups create": the (sub)commands the parse reached, for messages.
std::string commandPath(const CLI::App& app)
{
    std::string path = app.get_name();
    for (const CLI::App* a = &app; a;) {
        const CLI::App* next = nullptr;
        for (const auto* s : a->get_subcommands()) // the parsed ones; option groups have no name
            if (!s->get_name().empty() && !next) next = s;
        if (next) path += " " + next->get_name();
        a = next;
    }
    return path;
}

/// argv after the command's name: the global options before it are --NAME VALUE or --NAME=VALUE.
std::vector<std::string> argumentsAfterCommand(int argc, const char* const* argv)
{
    int i = 1;
    while (i < argc && std::strncmp(argv[i], "--", 2) == 0)
        i += std::strchr(argv[i], '=') ? 1 : 2;
    return i + 1 < argc ? std::vector<std::string>(argv + i + 1, argv + argc) : std::vector<std::string> {};
}

} // namespace

const std::vector<std::string>& commandArguments()
{
    return g_commandArguments;
}

int runCli(int argc, const char* const* argv)
{
    CLI::App app("Intel RDT (cache and memory-bandwidth monitoring and allocation) and PMU profiling.", "rdtscope-cli");
    auto formatter = std::make_shared<HelpFormatter>();
    formatter->column_width(30);
    app.formatter(formatter);
    // Like most tools, the last of a repeated single-value option wins (options that collect say so).
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app.require_subcommand(1);
    std::string connect, agent;
    app.add_option("--connect", connect,
           "run the command on an rdtscope-agent: ssh://[USER@]HOST[:PORT] (the system ssh runs\n"
           "rdtscope-agent --stdio there), unix:PATH (a local agent's socket) or local (pkexec);\n"
           "commands that can: "
               + remoteCommandNames())
        ->type_name("URL")
        ->check(CLI::Validator(
            [](std::string& url) {
                auto parsed = protocol::parseAgentUrl(url);
                return parsed ? std::string() : parsed.error().toString();
            },
            ""));
    app.add_option("--agent", agent,
           "where rdtscope-agent is on the server (with --connect local: on this machine) when it is not on PATH or in "
           ".../libexec/rdtscope")
        ->type_name("PATH");
    app.add_flag_callback(
        "--version",
        [] {
            std::printf("rdtscope-cli " RDTSCOPE_VERSION " (git " RDTSCOPE_GIT_REVISION ")\n");
            throw CLI::Success();
        },
        "print the version and exit");
    app.footer("Run 'rdtscope-cli COMMAND --help' for a command's options.\n"
               "Exit codes: 0 ok, 1 the command failed, 2 usage error, 3 hardware or kernel interface unavailable.");

    std::vector<CommandRun> runs;
    for (const auto& c : commands())
        runs.push_back(c.define(*app.add_subcommand(c.name, c.summary)));

    if (argc < 2) {
        std::fputs(app.help().c_str(), stderr);
        return ExitUsage;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::fputs(app.help().c_str(), stdout);
        return ExitOk;
    } catch (const CLI::Success&) {
        return ExitOk;
    } catch (const CLI::ParseError& e) {
        const std::string where = commandPath(app);
        std::string message = e.what();
        // A word where the command should be: CLI11 would say "A subcommand is required".
        if (where == app.get_name() && !app.remaining().empty() && app.remaining().front().rfind('-', 0) != 0)
            message = "unknown command '" + app.remaining().front() + "'";
        std::fprintf(
            stderr, "%s: %s\nRun '%s --help' for the options.\n", where.c_str(), message.c_str(), where.c_str());
        return ExitUsage;
    }
    if (!agent.empty() && connect.empty()) {
        std::fprintf(stderr, "rdtscope-cli: --agent PATH names the agent on the server: it goes with --connect URL\n");
        return ExitUsage;
    }
    g_commandArguments = argumentsAfterCommand(argc, argv);
    setConnectUrl(connect);
    setRemoteAgentPath(agent);
    for (std::size_t i = 0; i < commands().size(); ++i) {
        const auto& c = commands()[i];
        if (!app.got_subcommand(c.name)) continue;
        if (!connect.empty() && !c.remote) {
            std::fprintf(stderr,
                "rdtscope-cli: '%s' does not run through an agent (--connect) yet; commands that do: %s. Run it on "
                "the server itself, or without --connect.\n",
                c.name, remoteCommandNames().c_str());
            return ExitUsage;
        }
        return checkOutput(runs[i]());
    }
    return ExitUsage; // require_subcommand(1) makes this unreachable
}

} // namespace rdt::cli
