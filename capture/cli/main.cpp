// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli: the Qt-free command-line face of the engine (links `capture` only).
#include "Commands.h"

#include <csignal>

int main(int argc, char** argv)
{
    // Past a file size limit (`ulimit -f`) the kernel sends SIGXFSZ, whose default action kills the recorder
    // without a word; ignored, the write fails with EFBIG and the session writer reports it (setrlimit(2)).
    std::signal(SIGXFSZ, SIG_IGN);
    return rdt::cli::runCli(argc, argv);
}
