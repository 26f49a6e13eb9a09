// SPDX-License-Identifier: GPL-3.0-or-later
// The mon_llc_occupancy_limbo tracepoint reader (rdt/LimboTrace.h) on a tracefs-shaped temp tree: its lines parsed
// (fields of fs/resctrl/monitor_trace.h), and each missing piece (tracefs, the tracepoint, its enable switch) said.
#include "core/PosixFs.h"
#include "rdt/LimboTrace.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace rdt;

namespace {
struct TraceTree {
    std::string root;
    TraceTree()
    {
        char templ[] = "/tmp/rdt-tracefs-XXXXXX";
        root = ::mkdtemp(templ);
    }
    ~TraceTree() { std::filesystem::remove_all(root); }
    void write(const std::string& rel, const std::string& text)
    {
        std::filesystem::create_directories(std::filesystem::path(root + "/" + rel).parent_path());
        std::ofstream(root + "/" + rel) << text;
    }
    LimboReport read()
    {
        PosixFs fs(root);
        return LimboTrace(fs).read();
    }
};
const char* kTrace = "# tracer: nop\n"
                     "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
                     "   kworker/0:1-12  [000] d..1.  100.1: mon_llc_occupancy_limbo: ctrl_hw_id=1 mon_hw_id=5 "
                     "domain_id=0 llc_occupancy_bytes=1572864\n"
                     "   kworker/0:1-12  [000] d..1.  100.2: sched_switch: prev_comm=a\n"
                     "   kworker/1:1-13  [001] d..1.  100.3: mon_llc_occupancy_limbo: ctrl_hw_id=2 mon_hw_id=7 "
                     "domain_id=1 llc_occupancy_bytes=65536\n"
                     "   kworker/0:1-12  [000] d..1.  101.1: mon_llc_occupancy_limbo: ctrl_hw_id=1 mon_hw_id=5 "
                     "domain_id=0 llc_occupancy_bytes=524288\n"
                     "   kworker/0:1-12  [000] d..1.  101.2: mon_llc_occupancy_limbo: ctrl_hw_id=x mon_hw_id=9 "
                     "domain_id=0 llc_occupancy_bytes=1\n";
} // namespace

TEST(LimboTrace, ParsesTheLatestOccupancyPerRmidAndDomain)
{
    const auto rmids = LimboTrace::parse(kTrace);
    ASSERT_EQ(rmids.size(), 2u); // the malformed line and the other event are skipped
    EXPECT_EQ(rmids[0], (LimboRmid { 1, 5, 0, 524288 })); // the later event of RMID 5 wins
    EXPECT_EQ(rmids[1], (LimboRmid { 2, 7, 1, 65536 }));
    EXPECT_EQ(LimboTrace::parse(kTrace, 1).size(), 1u); // bounded
    EXPECT_TRUE(LimboTrace::parse("").empty());
}

TEST(LimboTrace, ReadsAnEnabledTracepointIntoTheAdvice)
{
    TraceTree t;
    t.write("trace", kTrace);
    t.write(std::string(LimboTrace::kEventDir) + "/enable", "1\n");
    const auto r = t.read();
    ASSERT_TRUE(r.readable) << r.why;
    ASSERT_EQ(r.rmids.size(), 2u);
    const std::string advice = r.advice();
    EXPECT_NE(advice.find("RMID 5 (CLOS 1) in domain 0 holds"), std::string::npos) << advice;
    EXPECT_NE(advice.find("RMID 7 (CLOS 2) in domain 1 holds"), std::string::npos) << advice;
}

TEST(LimboTrace, SaysWhatIsMissingInsteadOfNothingInLimbo)
{
    TraceTree none; // an empty directory: no tracefs mounted there
    auto r = none.read();
    EXPECT_FALSE(r.readable);
    EXPECT_NE(r.why.find("tracefs is not mounted"), std::string::npos) << r.why;
    EXPECT_NE(r.advice().find("cannot be listed"), std::string::npos);

    TraceTree absent;
    absent.write("trace", "");
    absent.write("events/sched/enable", "0\n");
    r = absent.read();
    EXPECT_FALSE(r.readable);
    EXPECT_NE(r.why.find("is absent"), std::string::npos) << r.why;

    TraceTree off;
    off.write("trace", kTrace);
    off.write(std::string(LimboTrace::kEventDir) + "/enable", "0\n");
    r = off.read();
    EXPECT_FALSE(r.readable);
    EXPECT_NE(r.why.find("is off"), std::string::npos) << r.why;
    EXPECT_TRUE(r.rmids.empty()); // an event left in the buffer is not read while the switch is off

    TraceTree quiet;
    quiet.write("trace", "# tracer: nop\n");
    quiet.write(std::string(LimboTrace::kEventDir) + "/enable", "1\n");
    r = quiet.read();
    EXPECT_TRUE(r.readable);
    EXPECT_NE(r.advice().find("recorded no RMID in limbo yet"), std::string::npos) << r.advice();
}
