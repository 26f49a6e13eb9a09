// SPDX-License-Identifier: GPL-3.0-or-later
#include "PersistedMsrSpace.h"

#include "core/AtomicFile.h"
#include "core/BoundedFile.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fcntl.h>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <vector>

namespace rdt {

namespace {
constexpr const char* kHeader = "# rdtscope simulated MSRs v1: cpu msr value (hex), in the order written";
/// Far more than any machine's control registers (CPUs x (PQR_ASSOC + CBA) + domains x masks and delays).
constexpr std::size_t kMaxLines = 1u << 20;

bool holdsConfiguration(std::uint32_t msr)
{
    return msr != msr::IA32_QM_EVTSEL && msr != msr::IA32_QM_CTR;
}

/// "0x..." in hexadecimal, anything else in decimal; the whole word or nothing.
template <typename T> bool parseNumber(const std::string& word, T& out)
{
    const char* b = word.data();
    const char* e = b + word.size();
    int base = 10;
    if (word.size() > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) {
        b += 2;
        base = 16;
    }
    auto [p, ec] = std::from_chars(b, e, out, base);
    return ec == std::errc {} && p == e && b != e;
}

std::string hex(std::uint64_t v)
{
    char buf[24];
    auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v, 16);
    (void)ec;
    return "0x" + std::string(buf, p);
}
} // namespace

PersistedMsrSpace::PersistedMsrSpace(std::shared_ptr<MsrSpace> inner, std::string dir, UniqueFd lock)
    : m_inner(std::move(inner))
    , m_dir(std::move(dir))
    , m_lock(std::move(lock))
{ }

Result<std::shared_ptr<PersistedMsrSpace>> PersistedMsrSpace::open(
    std::shared_ptr<MsrSpace> inner, const std::string& dir)
{
    if (dir.empty())
        return errnoError(EINVAL, "--source sim-msr: needs a directory", "e.g. --source sim-msr:/tmp/my-xeon");
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        return errnoError(errno, "cannot create " + dir + " for the simulated machine's MSRs");
    UniqueFd dirFd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dirFd)
        return errnoError(errno == ENOTDIR ? ENOTDIR : errno, "cannot open " + dir + " as a directory",
            "sim-msr:DIR keeps the simulated machine's registers in a directory of its own");
    UniqueFd lock(::openat(dirFd.get(), "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!lock) return errnoError(errno, "cannot open " + dir + "/lock");
    if (::flock(lock.get(), LOCK_EX | LOCK_NB) != 0) {
        const int e = errno;
        return errnoError(e == EWOULDBLOCK ? EBUSY : e,
            "the simulated machine in " + dir + " is in use by another rdtscope process",
            "wait for it to finish, or use another directory (each one is a machine of its own)");
    }
    std::shared_ptr<PersistedMsrSpace> space(new PersistedMsrSpace(std::move(inner), dir, std::move(lock)));
    if (auto s = space->load(); !s) return s.error();
    return space;
}

Status PersistedMsrSpace::load()
{
    const std::string file = m_dir + "/msrs";
    struct stat st { };
    if (::lstat(file.c_str(), &st) != 0 && errno == ENOENT) return {}; // a machine just switched on
    auto text = readBoundedFile(file, 64u << 20, "simulated MSR file");
    if (!text) return text.error();
    const std::string advice = "the file is written by rdtscope for --source sim-msr:" + m_dir
        + "; remove the directory to start from a machine just switched on";
    std::istringstream in(*text);
    std::string line;
    std::size_t lines = 0;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.empty() || line[0] == '#') continue;
        if (++lines > kMaxLines) return errnoError(EFBIG, m_dir + "/msrs holds too many registers", advice);
        std::istringstream words(line);
        std::string c, m, v, extra;
        unsigned cpu = 0;
        std::uint32_t msr = 0;
        std::uint64_t value = 0;
        if (!(words >> c >> m >> v) || (words >> extra) || !parseNumber(c, cpu) || !parseNumber(m, msr)
            || !parseNumber(v, value) || !holdsConfiguration(msr))
            return errnoError(
                EINVAL, m_dir + "/msrs:" + std::to_string(n) + ": not a register line: '" + line + "'", advice);
        if (cpu >= m_inner->cpuCount())
            return errnoError(EINVAL,
                m_dir + "/msrs:" + std::to_string(n) + ": CPU " + std::to_string(cpu) + " does not exist on this "
                    + std::to_string(m_inner->cpuCount()) + "-CPU machine",
                "the directory holds another machine's registers; " + advice);
        if (auto s = m_inner->write(cpu, msr, value); !s)
            return errnoError(s.error().code,
                m_dir + "/msrs:" + std::to_string(n) + ": the machine refused WRMSR " + hex(msr) + " on CPU "
                    + std::to_string(cpu) + ": " + s.error().message,
                advice);
        m_written[{ cpu, msr }] = { ++m_sequence, value };
        ++m_replayed;
    }
    return {};
}

Status PersistedMsrSpace::write(unsigned cpu, std::uint32_t msr, std::uint64_t value)
{
    if (auto s = m_inner->write(cpu, msr, value); !s) return s;
    if (!holdsConfiguration(msr)) return {};
    m_written[{ cpu, msr }] = { ++m_sequence, value };
    // The register changed: if the file cannot follow, the next run would not find it, so the caller (and its
    // transaction's rollback) hear about it.
    return save();
}

Status PersistedMsrSpace::save() const
{
    std::vector<std::pair<std::uint64_t, std::string>> ordered;
    ordered.reserve(m_written.size());
    for (const auto& [key, seqValue] : m_written)
        ordered.emplace_back(
            seqValue.first, std::to_string(key.first) + " " + hex(key.second) + " " + hex(seqValue.second) + "\n");
    std::sort(ordered.begin(), ordered.end());
    std::string text = std::string(kHeader) + "\n";
    for (const auto& [seq, line] : ordered)
        text += line;
    return writeFileAtomically(m_dir + "/msrs", text);
}

std::string PersistedMsrSpace::describe() const
{
    return m_inner->describe() + ", registers kept in " + m_dir;
}

} // namespace rdt
