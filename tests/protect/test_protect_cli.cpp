// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli protect as a user runs it: the Done-when run on the simulated load-steps scenario stopped with SIGINT
// after the controller has moved the best-effort groups; it writes the start allocation back and says so, comparing
// every group's schemata with the start. Bounded: 120 s for the run, the child killed otherwise.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

std::string slurp(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST(ProtectCli, SigintAfterTheFirstMoveRestoresTheStartAllocation)
{
    char dir[] = "/tmp/rdtscope-protect-cli-XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    const std::string err = std::string(dir) + "/stderr", out = std::string(dir) + "/stdout";
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        if (!std::freopen(err.c_str(), "w", stderr) || !std::freopen(out.c_str(), "w", stdout)) ::_exit(126);
        ::execl(RDTSCOPE_CLI, RDTSCOPE_CLI, "protect", "--group", "svc", "--target", "ipc>=0.8", "--policy", "model",
            "--source", "sim", "--scenario", "load-steps", "--duration", "60", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    bool moved = false;
    int status = 0;
    bool exited = false;
    while (std::chrono::steady_clock::now() < deadline) {
        if (::waitpid(pid, &status, WNOHANG) == pid) {
            exited = true;
            break;
        }
        if (!moved && slurp(err).find("protect: ") != std::string::npos
            && slurp(err).find(" write ") != std::string::npos) {
            moved = true;
            ::kill(pid, SIGINT);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!exited) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
    }
    const std::string e = slurp(err);
    ::unlink(err.c_str());
    ::unlink(out.c_str());
    ::rmdir(dir);
    ASSERT_TRUE(exited) << e;
    ASSERT_TRUE(moved) << e;
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << e;
    EXPECT_NE(e.find("stopped by SIGINT"), std::string::npos) << e;
    EXPECT_NE(e.find("restore: batch: restore L3:0=7ff MB:0=100 reads back"), std::string::npos) << e;
    EXPECT_NE(e.find("end allocation: batch: L3:0=7ff MB:0=100"), std::string::npos) << e;
    EXPECT_NE(e.find("every best-effort group's schemata reads as at the start"), std::string::npos) << e;
}
