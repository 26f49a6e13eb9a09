// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli: the Qt-free command-line face of the engine (links `capture` only).
#include "Commands.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

using namespace rdt::cli;

static void printUsage(std::FILE* out)
{
    std::fprintf(out, "usage: rdtscope-cli COMMAND [OPTIONS]\n\nCommands:\n");
    for (const auto& c : commands())
        std::fprintf(out, "  %s\n", c.synopsis);
    std::fprintf(out,
        "\nRun 'rdtscope-cli COMMAND --help' for a command's options.\n"
        "Exit codes: 0 ok, 1 the command failed, 2 usage error, 3 hardware or kernel interface unavailable.\n");
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
        std::printf("rdtscope-cli " RDTSCOPE_VERSION "\n");
        return ExitOk;
    }
    const std::string name = argv[1];
    for (const auto& c : commands()) {
        if (name == c.name) return checkOutput(c.run(std::vector<std::string>(argv + 2, argv + argc)));
    }
    std::fprintf(stderr, "rdtscope-cli: unknown command '%s'\n\n", name.c_str());
    printUsage(stderr);
    return ExitUsage;
}
