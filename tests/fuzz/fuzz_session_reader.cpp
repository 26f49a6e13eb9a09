// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for the session reader: any bytes, opened as a session image, then everything a consumer does
// (summary text, samples, summary buckets, TMA, PMU batches, maps, symbols, the machine's topology text as a replay
// reads it, replay with seek). It must never crash, hang or allocate without bound; errors and issues are the
// expected outcome for garbage.
#include "rdt/CapabilitiesText.h"
#include "session/ReplaySource.h"
#include "session/SessionReader.h"
#include "session/SessionText.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace rdt::session;
    std::vector<std::uint8_t> bytes(data, data + size);
    // The step budget bounds each query: a crafted b-tree cannot make one statement run for long.
    auto opened = SessionReader::openImage(bytes, ReaderOptions { 20000 });
    if (!opened) return 0;
    std::shared_ptr<SessionReader> r(std::move(opened.value()));
    (void)formatSummary(*r);
    std::size_t n = 0;
    (void)r->forEachSample(0, UINT64_MAX, [&](const rdt::RdtSample&) { return ++n < 100000; });
    (void)r->summary(1);
    (void)r->summary(60);
    (void)r->tma();
    (void)r->pmuBatches();
    (void)r->addressMaps();
    (void)r->symbols();
    (void)rdt::parseCapabilitiesText(r->machine().topology);
    ReplaySource replay(r);
    replay.seek(replay.startNs() + (replay.endNs() - replay.startNs()) / 2);
    (void)replay.allocationStateAt(replay.position());
    (void)replay.membershipAt(replay.position());
    replay.setSpeed(ReplaySource::kAsFastAsPossible);
    replay.play();
    for (int i = 0; i < 20 && !replay.atEnd(); ++i)
        (void)replay.poll(64);
    return 0;
}
