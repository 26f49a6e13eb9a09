// SPDX-License-Identifier: GPL-3.0-or-later
#include "AgentTestHelpers.h"

#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace rdt::test {

CommandOutput run(const std::vector<std::string>& argv, int timeoutS, bool separateStderr)
{
    CommandOutput r;
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) return r;
    // stderr kept apart goes to an unlinked temp file (no second pipe to drain while reading the first).
    std::FILE* errFile = separateStderr ? std::tmpfile() : nullptr;
    std::vector<std::string> full { "timeout", "-k", "5", std::to_string(timeoutS) };
    full.insert(full.end(), argv.begin(), argv.end());
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(pipeFds[1], 1);
        ::dup2(errFile ? ::fileno(errFile) : pipeFds[1], 2);
        const int devnull = ::open("/dev/null", O_RDONLY);
        ::dup2(devnull, 0);
        std::vector<char*> args;
        for (auto& a : full)
            args.push_back(a.data());
        args.push_back(nullptr);
        ::execvp(args[0], args.data());
        ::_exit(127);
    }
    ::close(pipeFds[1]);
    char buf[4096];
    for (ssize_t n; (n = ::read(pipeFds[0], buf, sizeof buf)) > 0;)
        r.out.append(buf, static_cast<std::size_t>(n));
    ::close(pipeFds[0]);
    int st = 0;
    ::waitpid(pid, &st, 0);
    r.exitCode = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (errFile) {
        std::rewind(errFile);
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, errFile)) > 0;)
            r.err.append(buf, n);
        std::fclose(errFile);
    }
    return r;
}

std::string makeTempDir(const std::string& prefix)
{
    std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    const char* d = ::mkdtemp(tmpl.data());
    if (!d) return {};
    ::chmod(d, 0755);
    return d;
}

SshSandbox::SshSandbox()
{
    dir = makeTempDir("rdtscope-sshd");
    const auto r
        = run({ std::string(RDTSCOPE_SOURCE_DIR) + "/tests/agent/sshd-sandbox", "start", dir, RDTSCOPE_AGENT_DIR }, 60);
    startOutput = r.out;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("PORT=", 0) == 0) port = std::atoi(line.c_str() + 5);
        const std::string key = "export RDTSCOPE_SSH_COMMAND='";
        if (line.rfind(key, 0) == 0) sshCommand = line.substr(key.size(), line.size() - key.size() - 1);
    }
    if (r.exitCode != 0) port = 0;
}

SshSandbox::~SshSandbox()
{
    run({ std::string(RDTSCOPE_SOURCE_DIR) + "/tests/agent/sshd-sandbox", "stop", dir }, 30);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}

BackgroundProcess::BackgroundProcess(
    const std::string& program, const std::vector<std::string>& args, const std::string& logPath)
    : m_log(logPath)
{
    m_pid = ::fork();
    if (m_pid == 0) {
        const int fd = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            ::dup2(fd, 2);
            ::close(fd);
        }
        const int devnull = ::open("/dev/null", O_RDWR);
        ::dup2(devnull, 0);
        ::dup2(devnull, 1);
        std::vector<char*> argv { const_cast<char*>(program.c_str()) };
        for (const auto& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(program.c_str(), argv.data());
        ::_exit(127);
    }
}

BackgroundProcess::~BackgroundProcess()
{
    if (m_pid <= 0) return;
    ::kill(m_pid, SIGTERM);
    for (int i = 0; i < 100; ++i) {
        if (::waitpid(m_pid, nullptr, WNOHANG) == m_pid) return;
        ::usleep(20000);
    }
    ::kill(m_pid, SIGKILL);
    ::waitpid(m_pid, nullptr, 0);
}

int BackgroundProcess::waitExit(int timeoutMs)
{
    if (m_pid <= 0) return -1;
    for (int waited = 0; waited <= timeoutMs; waited += 20) {
        int st = 0;
        if (::waitpid(m_pid, &st, WNOHANG) == m_pid) {
            m_pid = -1;
            return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        }
        ::usleep(20000);
    }
    return -1;
}

namespace {
/// A /proc file of a process that may exit while it is read: ESRCH from read(2) is "gone", not an exception
/// (std::istreambuf_iterator throws basic_filebuf::underflow on it, which failed a test under load).
std::string readProcFile(const std::filesystem::path& path)
{
    std::string out;
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return out;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0 && out.size() < (1u << 20);)
        out.append(buf, n);
    std::fclose(f);
    return out;
}
} // namespace

std::vector<pid_t> childrenOf(pid_t parent)
{
    std::vector<pid_t> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        const std::string stat = readProcFile(e.path() / "stat");
        // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
        const auto close = stat.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(stat.substr(close + 1));
        std::string state;
        long ppid = 0;
        rest >> state >> ppid;
        if (ppid == parent) out.push_back(static_cast<pid_t>(std::atol(name.c_str())));
    }
    return out;
}

std::vector<pid_t> processesOf(const std::string& exe, const std::string& argument)
{
    std::vector<pid_t> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::error_code linkEc;
        if (std::filesystem::read_symlink(e.path() / "exe", linkEc).string() != exe) continue;
        const std::string cmdline = readProcFile(e.path() / "cmdline");
        if (cmdline.find(argument) != std::string::npos) out.push_back(static_cast<pid_t>(std::atol(name.c_str())));
    }
    return out;
}

std::string BackgroundProcess::log() const
{
    std::ifstream f(m_log);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

int BackgroundProcess::fdCount() const
{
    int n = 0;
    std::error_code ec;
    for ([[maybe_unused]] const auto& e :
        std::filesystem::directory_iterator("/proc/" + std::to_string(m_pid) + "/fd", ec))
        ++n;
    return n;
}

long BackgroundProcess::rssKiB() const
{
    std::ifstream f("/proc/" + std::to_string(m_pid) + "/status");
    for (std::string line; std::getline(f, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
    return -1;
}

} // namespace rdt::test
