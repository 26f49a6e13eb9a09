// SPDX-License-Identifier: GPL-3.0-or-later
// The import pass (symbols, LBR graph) against perf on the same file with the same binary: samples per symbol
// (`perf report --no-branch-stack --sort symbol -n`), branch counts per (source, target) function
// (`perf report -b -n`, summed over its default sort's extra keys), and the LBR call stacks of a
// `--call-graph lbr` file (`perf script -F ip`).

#include "PerfOracle.h"
#include "perfdata/PerfDataImport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

using namespace rdt;
using namespace rdt::perfdata;
using namespace rdt::perfdata::test;

namespace {

const std::string PropellerRecorded = "/build/work/11ef31a2a8be9640fa8d4c917e76f0db3923/google3/blaze-out/k8-opt/"
                                      "genfiles/devtools/crosstool/autofdo/testdata/propeller_sample_1.bin.gen";

/// perf wants the binary at symfs + recorded path; we only need the directory that holds it.
std::string perfSymfs()
{
    const std::string root = ::testing::TempDir() + "/perf-symfs";
    const std::filesystem::path target = root + PropellerRecorded;
    std::filesystem::create_directories(target.parent_path());
    std::filesystem::copy_file(
        dataPath("propeller_sample_1.bin"), target, std::filesystem::copy_options::overwrite_existing);
    return root;
}

ImportResult importOk(const std::string& file, const std::vector<std::string>& symfs)
{
    ImportOptions opt;
    opt.symfs = symfs;
    auto r = importPerfData(file, opt);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().toString());
    return r.ok() ? std::move(r).value() : ImportResult {};
}

} // namespace

TEST(PerfdataImportOracle, PropellerFindsItsBinaryByBuildId)
{
    // The fixture directory holds the binary under another name: only its (8-byte) build-id links it to the file.
    auto r = importOk(dataPath("propeller_sample_1.perfdata"), { std::string(RDTSCOPE_TEST_DATA) + "/perf" });
    ASSERT_EQ(r.binaries.size(), 1u);
    EXPECT_NE(r.binaries[0].find("propeller_sample_1.bin"), std::string::npos);
    ASSERT_GE(r.bySymbol.size(), 2u);
    EXPECT_EQ(r.bySymbol[0].symbol, "main");
    EXPECT_EQ(r.bySymbol[1].symbol, "compute_flag");
    // Without --symfs nothing resolves and the report says why, per module.
    auto bare = importOk(dataPath("propeller_sample_1.perfdata"), {});
    EXPECT_TRUE(bare.binaries.empty());
    EXPECT_FALSE(bare.missingBinaries.empty());
    EXPECT_NE(bare.bySymbol[0].symbol.find("propeller_sample_1.bin.gen+0x"), std::string::npos);
}

TEST(PerfdataImportOracle, SamplesPerSymbolMatchPerfReport)
{
    RDT_REQUIRE_PERF();
    const auto file = dataPath("propeller_sample_1.perfdata");
    const auto symfs = perfSymfs();
    auto ours = importOk(file, { std::string(RDTSCOPE_TEST_DATA) + "/perf" });
    std::istringstream in(run("perf report --no-branch-stack --sort symbol --stdio -n -i '" + file + "' --symfs '"
        + symfs + "' 2>/dev/null"));
    std::map<std::string, std::uint64_t> theirs;
    std::string line;
    while (std::getline(in, line)) {
        // "    51.04%          1901  [.] main                -      -"
        if (line.empty() || line[0] == '#') continue;
        std::istringstream w(line);
        std::string pctText, mode, sym;
        std::uint64_t n = 0;
        if (w >> pctText >> n >> mode >> sym) theirs[sym] = n;
    }
    ASSERT_FALSE(theirs.empty());
    std::uint64_t matched = 0;
    for (const auto& row : ours.bySymbol)
        if (row.symbol == "main" || row.symbol == "compute_flag") {
            EXPECT_EQ(row.samples, theirs[row.symbol]) << row.symbol;
            matched += row.samples;
        }
    EXPECT_EQ(theirs["main"] + theirs["compute_flag"], matched);
    EXPECT_GT(matched, 3700u);
}

TEST(PerfdataImportOracle, BranchCountsPerFunctionPairMatchPerfReportB)
{
    RDT_REQUIRE_PERF();
    const auto file = dataPath("propeller_sample_1.perfdata");
    const auto symfs = perfSymfs();
    auto ours = importOk(file, { std::string(RDTSCOPE_TEST_DATA) + "/perf" });
    ASSERT_TRUE(ours.lbrMode.has_value());
    EXPECT_EQ(*ours.lbrMode, pmu::BranchGraph::Mode::AnyBranch);
    // perf 6.1's default branch sort is comm,dso_from,symbol_from,symbol_to,cycles: sum over the other keys.
    std::istringstream in(run("perf report -b --stdio -n -i '" + file + "' --symfs '" + symfs + "' 2>/dev/null"));
    std::map<std::pair<std::string, std::string>, std::uint64_t> theirs;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream w(line);
        std::string pctText, comm, dso, m1, from, m2, to;
        std::uint64_t n = 0;
        if (w >> pctText >> n >> comm >> dso >> m1 >> from >> m2 >> to) theirs[{ from, to }] += n;
    }
    ASSERT_FALSE(theirs.empty());
    // Our rows are per (from, to, kind): perf's per (from, to).
    std::map<std::pair<std::string, std::string>, std::uint64_t> mine;
    for (const auto& e : ours.lbr.edges)
        mine[{ e.from, e.to }] += e.stats.count;
    std::size_t compared = 0;
    for (const auto& [pair, count] : mine) {
        const auto& [from, to] = pair;
        if ((from != "main" && from != "compute_flag") || (to != "main" && to != "compute_flag")) continue;
        EXPECT_EQ(count, theirs[pair]) << from << " -> " << to;
        ++compared;
    }
    EXPECT_EQ(compared, 4u); // main->main, main->compute_flag, compute_flag->main, compute_flag->compute_flag
    EXPECT_EQ(ours.lbr.functions[0].name, "main");
}

TEST(PerfdataImportOracle, CallStackModeStacksMatchPerfScript)
{
    RDT_REQUIRE_PERF();
    // perf script -F ip prints, per sample, its callchain; with --call-graph lbr the user part comes from the LBR.
    // Our call-stack graph must contain each of perf's user stacks as caller -> callee edges.
    const auto file = dataPath("perf.lbr.data");
    auto ours = importOk(file, { std::string(RDTSCOPE_TEST_DATA) + "/perf" });
    ASSERT_TRUE(ours.lbrMode.has_value());
    EXPECT_EQ(*ours.lbrMode, pmu::BranchGraph::Mode::CallStack);
    std::set<std::pair<std::string, std::string>> edges;
    for (const auto& e : ours.lbr.edges)
        edges.insert({ e.from, e.to });
    EXPECT_TRUE(edges.count({ "_start", "__libc_start_main" }));
    EXPECT_TRUE(edges.count({ "__libc_start_main", "main" }));
    EXPECT_TRUE(edges.count({ "main", "__hypot" }));
    EXPECT_TRUE(edges.count({ "__hypot", "__hypot_finite" }));
    // Stacks address by address: perf's user frames per sample (after the kernel part of the callchain, at least
    // two frames) against
    // entries[0].to followed by entries[i].from of our decoded samples, as multisets.
    std::vector<std::vector<std::uint64_t>> theirs, mine;
    {
        std::istringstream in(run("perf script -F ip -i '" + file + "' 2>/dev/null"));
        std::string line;
        std::vector<std::uint64_t> cur;
        bool any = false;
        auto flush = [&]() {
            if (any && cur.size() >= 2) theirs.push_back(cur);
            cur.clear();
            any = false;
        };
        while (std::getline(in, line)) {
            if (line.empty() || line[0] != '\t') {
                flush();
                continue;
            }
            any = true;
            const auto a = std::stoull(line.substr(1), nullptr, 16);
            if (a < 0xffff800000000000ull) cur.push_back(a);
        }
        flush();
    }
    auto reader = PerfDataReader::open(file);
    ASSERT_TRUE(reader.ok());
    ASSERT_TRUE((*reader)
                    ->read([&](const pmu::DecodedRecord& rec) {
                        if (rec.kind != pmu::RecordKind::Sample) return true;
                        // perf 6.1 prints these frames relative to the binary's map start (0x400000), as it
                        // cannot find the binary at its recorded path.
                        std::vector<std::uint64_t> st;
                        if (!rec.sample.branches.empty()) {
                            st.push_back(rec.sample.branches[0].to - 0x400000);
                            for (const auto& e : rec.sample.branches)
                                st.push_back(e.from - 0x400000);
                        }
                        if (st.size() >= 2) mine.push_back(st);
                        return true;
                    })
                    .ok());
    std::sort(theirs.begin(), theirs.end());
    std::sort(mine.begin(), mine.end());
    // 21 of 29 samples have user stacks (8 were taken in the kernel; perf prints one of those as a lone frame).
    EXPECT_EQ(mine.size(), 21u);
    EXPECT_EQ(mine, theirs);
    EXPECT_EQ(ours.lbr.emptyStacks, 8u); // docs/PMU.md "Call graphs from LBR": 8 of 29 samples were taken in the kernel
    EXPECT_EQ(ours.lbr.samples, 29u);
}

TEST(PerfdataImportOracle, EdgeKindsComeFromTheBinaryOrAreUnknown)
{
    // propeller_sample_1 was recorded with `perf record -b` and no branch types: the kinds come from the
    // instruction at each branch source when the binary is there, and are unknown when it is not -- never "call"
    // for an address pair alone (docs/PMU.md "Edge kinds").
    const auto file = dataPath("propeller_sample_1.perfdata");
    auto bare = importOk(file, {});
    ASSERT_TRUE(bare.lbrMode.has_value());
    EXPECT_FALSE(bare.lbrInfo.typesRecorded);
    EXPECT_EQ(bare.lbr.edgeCount(pmu::EdgeKind::Call), 0u);
    EXPECT_EQ(bare.lbr.edgeCount(pmu::EdgeKind::Unknown), bare.lbr.edges.size());
    EXPECT_EQ(bare.lbr.entryCount(pmu::EdgeKindFrom::None), bare.lbr.branches);

    auto withBinary = importOk(file, { std::string(RDTSCOPE_TEST_DATA) + "/perf" });
    auto rowOf = [&](const std::string& from, const std::string& to, pmu::EdgeKind kind) -> const pmu::FunctionEdge* {
        for (const auto& e : withBinary.lbr.edges)
            if (e.from == from && e.to == to && e.kind == kind) return &e;
        return nullptr;
    };
    const auto* call = rowOf("main", "compute_flag", pmu::EdgeKind::Call);
    const auto* ret = rowOf("compute_flag", "main", pmu::EdgeKind::Return);
    const auto* loop = rowOf("main", "main", pmu::EdgeKind::Jump);
    ASSERT_NE(call, nullptr);
    ASSERT_NE(ret, nullptr);
    ASSERT_NE(loop, nullptr);
    EXPECT_EQ(call->kindFrom, pmu::EdgeKindFrom::Disassembly);
    EXPECT_EQ(rowOf("main", "main", pmu::EdgeKind::Call), nullptr) << "a loop back-edge is no call";
    EXPECT_EQ(
        withBinary.lbr.entryCount(pmu::EdgeKindFrom::Disassembly) + withBinary.lbr.entryCount(pmu::EdgeKindFrom::None),
        withBinary.lbr.branches);
}
