// SPDX-License-Identifier: GPL-3.0-or-later
// Synthetic sessions for the tests: deterministic values that each test can recompute.
#pragma once

#include "session/SessionWriter.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace rdt::session::testing {

inline std::string groupName(int g) { return g == 0 ? std::string() : "g" + std::to_string(g); }

/// Sample values are a function of (time, group, domain) so readers can check every field.
inline RdtSample syntheticSample(std::uint64_t t, int g, int d)
{
    RdtSample s;
    s.timeNs = t;
    s.group = groupName(g);
    s.domain = d;
    s.occupancyBytes = (t / 1000) % 1000003 + static_cast<std::uint64_t>(g) * 4096 + static_cast<std::uint64_t>(d);
    s.mbmTotalBytes = t / 7 + static_cast<std::uint64_t>(g);
    s.mbmLocalBytes = t / 11 + static_cast<std::uint64_t>(d);
    s.mbmTotalBps = 1.5e9 + static_cast<double>(g) * 1e6 + static_cast<double>(t % 1000);
    s.mbmLocalBps = 0.5e9 + static_cast<double>(d);
    s.flags = (t / 100000000) % 7 == 0 ? static_cast<std::uint32_t>(SampleWrapped) : 0u;
    return s;
}

inline RdtSampleBatch syntheticBatch(std::uint64_t t, int groups, int domains)
{
    RdtSampleBatch b;
    b.timeNs = t;
    for (int g = 0; g < groups; ++g)
        for (int d = 0; d < domains; ++d)
            b.samples.push_back(syntheticSample(t, g, d));
    return b;
}

inline SessionMeta syntheticMeta(std::uint64_t startNs = 1'000'000'000)
{
    SessionMeta m;
    m.startWallNs = 1'764'000'000'000'000'000ull;
    m.startMonoNs = startNs;
    m.host = "testhost";
    m.kernel = "6.1.0-test";
    m.source = "synthetic";
    m.simulated = true;
    m.toolVersion = "0.1.0";
    m.commandLine = "test_session";
    m.scenario = "none";
    m.intervalNs = 100'000'000;
    return m;
}

inline MachineInfo syntheticMachine()
{
    return MachineInfo { "{\"leaves\":[]}", "L3 0: cpus 0-7\nL3 1: cpus 8-15\n", "synthetic test machine" };
}

/// A fresh temp directory, removed with its files at the end of the test.
class TempDir {
public:
    TempDir()
    {
        char tmpl[] = "/tmp/rdtscope-session-XXXXXX";
        m_path = ::mkdtemp(tmpl);
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    std::string file(const std::string& name) const { return m_path + "/" + name; }

private:
    std::string m_path;
};

} // namespace rdt::session::testing
