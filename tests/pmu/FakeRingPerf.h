// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A fake perf_event_open for tests: every open is recorded, ids come from PERF_EVENT_IOC_ID, and rings are anonymous
// mappings the test writes records into as the kernel would (writeRing publishes data_head).

#include "HybridEnv.h"
#include "pmu/PerfSyscalls.h"

#include <cerrno>
#include <cstring>
#include <linux/perf_event.h>
#include <map>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace rdt::pmu::test {

/// Records every open (attr, pid, cpu, group) with the id it gave; rings are zeroed anonymous mappings whose
/// address the test keeps, so it can write records into them as the kernel would.
class FakeRingPerf final : public PerfSyscalls {
public:
    struct Open {
        EventAttr attr;
        pid_t pid;
        int cpu;
        int group;
        int fd;
        std::uint64_t id = 0;
    };
    explicit FakeRingPerf(PerfEnvironment e = hybridEnv())
        : env(std::move(e))
    { }
    PerfEnvironment env;
    std::vector<Open> opens;
    std::map<int, std::pair<void*, std::size_t>> rings; ///< leader fd -> mapping

    Result<UniqueFd> open(const EventAttr& attr, pid_t pid, int cpu, int groupFd, unsigned long) override
    {
        UniqueFd fd(::eventfd(0, EFD_CLOEXEC));
        opens.push_back({ attr, pid, cpu, groupFd, fd.get() });
        return fd;
    }
    Status ioctl(int fd, unsigned long request, unsigned long arg) override
    {
        if (request == PERF_EVENT_IOC_ID)
            for (std::size_t i = opens.size(); i-- > 0;)
                if (opens[i].fd == fd) {
                    opens[i].id = 1000 + i;
                    *reinterpret_cast<std::uint64_t*>(arg) = opens[i].id;
                    break;
                }
        return {};
    }
    Result<rdt::MappedRegion> mmap(int fd, std::size_t size) override
    {
        void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return rdt::errnoError(errno, "mmap");
        rings[fd] = { p, size };
        return rdt::MappedRegion(p, size);
    }
    Result<std::size_t> read(int, std::span<std::byte>) override { return rdt::makeError("no reads"); }
    PerfEnvironment environment() override { return env; }

    /// Appends records to the ring of the group led by `leaderFd` (data area after the control page, which a
    /// zeroed page describes as the older kernels' layout) and publishes data_head.
    void writeRing(int leaderFd, const std::vector<std::byte>& bytes)
    {
        auto [p, size] = rings.at(leaderFd);
        auto* page = static_cast<perf_event_mmap_page*>(p);
        const auto pageSize = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        std::memcpy(static_cast<char*>(p) + pageSize + page->data_head, bytes.data(), bytes.size());
        page->data_head += bytes.size();
        (void)size;
    }
};

} // namespace rdt::pmu::test
