// SPDX-License-Identifier: GPL-3.0-or-later
// Writes the seed sessions of tests/data/session/corpus (run by hand when the session format changes:
// `build/dev/tests/fuzz/make_session_seeds tests/data/session/corpus`). Small pages (512 bytes) keep each seed a
// few kilobytes, so mutations reach every table's b-tree; the seeds hold every kind of row a session can have.
#include "session/SessionWriter.h"

#include <cstdio>
#include <string>

namespace {

using namespace rdt;
using namespace rdt::session;

constexpr std::uint64_t kSec = 1'000'000'000;

SessionMeta meta(bool simulated)
{
    SessionMeta m;
    m.startWallNs = 1'764'000'000'000'000'000ull;
    m.startMonoNs = kSec;
    m.host = "seed";
    m.kernel = "6.1.0";
    m.source = simulated ? "sim:noisy-neighbour" : "resctrl:/sys/fs/resctrl";
    m.simulated = simulated;
    m.toolVersion = "0.1.0";
    m.commandLine = "make_session_seeds";
    m.scenario = simulated ? "noisy-neighbour" : "";
    m.intervalNs = kSec / 10;
    m.timeIsSimulated = simulated;
    return m;
}

RdtSampleBatch batch(std::uint64_t t, int groups, int domains)
{
    RdtSampleBatch b { t, {} };
    for (int g = 0; g < groups; ++g)
        for (int d = 0; d < domains; ++d) {
            RdtSample s;
            s.timeNs = t;
            s.group = g == 0 ? std::string() : "g" + std::to_string(g);
            s.domain = d;
            s.occupancyBytes = 1'000'000u * static_cast<unsigned>(g + 1) + static_cast<unsigned>(d);
            s.mbmTotalBytes = t / 3;
            s.mbmLocalBytes = t / 5;
            s.mbmTotalBps = 1e9 * (g + 1);
            s.mbmLocalBps = 5e8;
            s.flags = (t / kSec) % 3 == 0 ? SampleWrapped : 0u;
            b.samples.push_back(std::move(s));
        }
    return b;
}

bool write(const std::string& path, bool simulated, int seconds, bool everything)
{
    WriterOptions options;
    options.overwrite = true;
    options.pageSize = 512;
    auto w = SessionWriter::create(
        path, meta(simulated), { "{\"leaves\":[]}", "L3 0: cpus 0-3\nL3 1: cpus 4-7\n", "seed machine" }, options);
    if (!w) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(), w.error().toString().c_str());
        return false;
    }
    auto& s = *w.value();
    bool ok = s.addAllocation({ kSec, "initial", "g1", "L3", 0, "", "7ff", true, "" }).ok()
        && s.addAllocation({ kSec, "initial", "g1", "MB", 1, "", "100", true, "" }).ok()
        && s.addMembership({ kSec, "g1", "100 101", "0-1" }).ok();
    if (everything)
        ok = ok && s.addMarker({ 2 * kSec, "note", "seed marker" }).ok()
            && s.addAllocation({ 2 * kSec, "gui", "g1", "L3", 0, "7ff", "f", true, "" }).ok()
            && s.addAllocation({ 2 * kSec, "gui", "g1", "L3", 1, "7ff", "5", false, "non-consecutive" }).ok()
            && s.addTma({ { kSec, 2 * kSec, "system", 1, "retiring", 0.3 },
                            { kSec, 2 * kSec, "system", 1, "backend_bound", 0.5 } })
                   .ok()
            && s.addPmuBatch({ kSec, 2 * kSec, "lbr", 4, std::vector<std::uint8_t>(300, 7) }).ok()
            && s.addAddressMap({ kSec, 100, 0x400000, 0x401000, 0, "/usr/bin/seed", "00ff" }).ok()
            && s.addSymbols({ { "/usr/bin/seed", 0x1000, 0x40, "seed_function" } }).ok();
    for (int i = 0; ok && i < seconds * 10; ++i)
        ok = s.addSamples(batch(kSec + static_cast<std::uint64_t>(i) * kSec / 10, 3, 2)).ok();
    ok = ok && s.close().ok();
    if (!ok) std::fprintf(stderr, "%s: write failed\n", path.c_str());
    return ok;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_session_seeds DIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    const bool ok = write(dir + "/simulated-everything.rdts", true, 3, true)
        && write(dir + "/hardware-samples.rdts", false, 2, false) && write(dir + "/empty.rdts", true, 0, false);
    return ok ? 0 : 1;
}
