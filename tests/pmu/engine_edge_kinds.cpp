// SPDX-License-Identifier: GPL-3.0-or-later
// Edge kinds (docs/PMU.md "Edge kinds"): from the record's branch type when the attr saved it, else from the
// instruction at the branch source, else unknown -- an address pair alone never makes a call. And samples without
// user entries: empty stacks and kernel-only stacks both.
#include "pmu/BranchGraph.h"
#include "pmu/EdgeKind.h"
#include "pmu/Symbolizer.h"

#include <gtest/gtest.h>

#include <vector>

using namespace rdt::pmu;

namespace {

void addProgram(Symbolizer& sym)
{
    sym.addSymbolTable(0, "[fixture]", { { 0x1000, 0x100, "main" }, { 0x1100, 0x100, "parse" } });
}

BranchEntry br(std::uint64_t from, std::uint64_t to, std::uint8_t type = perf::BrUnknown, std::uint8_t newType = 0,
    std::uint8_t priv = 0)
{
    return BranchEntry { from, to, BranchEntry::makeFlags(false, true, 1, type, false, false, 0, newType, priv) };
}

Sample lbrSample(std::uint64_t ip, std::vector<BranchEntry> entries)
{
    Sample s;
    s.present = perf::SampleIp | perf::SampleTid | perf::SampleBranchStack;
    s.pid = s.tid = 7;
    s.ip = ip;
    s.branches = std::move(entries);
    s.branchNr = s.branches.size();
    return s;
}

const FunctionEdge* findEdge(const BranchGraphReport& r, const std::string& from, const std::string& to, EdgeKind k)
{
    for (const auto& e : r.edges)
        if (e.from == from && e.to == to && e.kind == k) return &e;
    return nullptr;
}

} // namespace

TEST(EdgeKinds, WithoutTypesOrBinaryEveryEdgeIsUnknownNeverCall)
{
    Symbolizer sym;
    addProgram(sym);
    BranchGraph g(BranchGraph::Info { BranchGraph::Mode::AnyBranch, false, BranchStackSource::IntelLbr });
    // a loop back-edge inside parse, a branch into parse from main, and one back: without types nothing is known
    g.add(lbrSample(0x1150, { br(0x1180, 0x1140), br(0x1010, 0x1100), br(0x11f0, 0x1020) }));
    const auto r = g.report(sym);
    ASSERT_EQ(r.edges.size(), 3u);
    for (const auto& e : r.edges) {
        EXPECT_EQ(e.kind, EdgeKind::Unknown) << e.from << " -> " << e.to;
        EXPECT_EQ(e.kindFrom, EdgeKindFrom::None);
        EXPECT_FALSE(e.call());
    }
    EXPECT_EQ(r.edgeCount(EdgeKind::Call), 0u);
    EXPECT_EQ(r.edgeCount(EdgeKind::Unknown), 3u);
    EXPECT_EQ(r.entryCount(EdgeKindFrom::None), 3u);
}

TEST(EdgeKinds, BranchTypesGiveTheKindWhenTheAttrSavedThem)
{
    Symbolizer sym;
    addProgram(sym);
    BranchGraph g(BranchGraph::Info { BranchGraph::Mode::AnyBranch, true, BranchStackSource::ArmBrbe });
    g.add(lbrSample(0x1150,
        { br(0x1180, 0x1140, perf::BrCond), br(0x1010, 0x1100, perf::BrCall), br(0x11f0, 0x1020, perf::BrRet),
            br(0x1030, 0x1040, perf::BrSyscall), br(0x1050, 0x1060, perf::BrExtendAbi, 1),
            br(0x1070, 0x1110, perf::BrUncond) }));
    const auto r = g.report(sym);
    EXPECT_NE(findEdge(r, "parse", "parse", EdgeKind::Jump), nullptr);
    EXPECT_NE(findEdge(r, "main", "parse", EdgeKind::Call), nullptr);
    EXPECT_NE(findEdge(r, "parse", "main", EdgeKind::Return), nullptr);
    EXPECT_NE(findEdge(r, "main", "parse", EdgeKind::Jump), nullptr) << "a jump across functions is no call";
    EXPECT_EQ(r.edgeCount(EdgeKind::Trap), 1u) << "syscall and a data fault (EXTEND_ABI) in main -> main";
    EXPECT_EQ(r.entryCount(EdgeKind::Trap), 2u);
    EXPECT_EQ(r.entryCount(EdgeKindFrom::BranchType), 6u);

    // The same entries from an attr without TYPE_SAVE: their type bits are not trusted.
    BranchGraph untyped(BranchGraph::Info { BranchGraph::Mode::AnyBranch, false, BranchStackSource::Unknown });
    untyped.add(lbrSample(0x1150, { br(0x1010, 0x1100, perf::BrCall) }));
    EXPECT_EQ(untyped.report(sym).edges.at(0).kind, EdgeKind::Unknown);
}

TEST(EdgeKinds, CallStackModeEdgesAreCallsFromTheStack)
{
    Symbolizer sym;
    addProgram(sym);
    BranchGraph g(BranchGraph::Mode::CallStack);
    g.add(lbrSample(0x1150, { br(0x1010, 0x1100) }));
    const auto r = g.report(sym);
    ASSERT_EQ(r.edges.size(), 1u);
    EXPECT_EQ(r.edges[0].kind, EdgeKind::Call);
    EXPECT_EQ(r.edges[0].kindFrom, EdgeKindFrom::CallStack);
}

TEST(EdgeKinds, KernelOnlySamplesHaveNoUserEntries)
{
    Symbolizer sym;
    addProgram(sym);
    BranchGraph g(BranchGraph::Mode::AnyBranch);
    constexpr std::uint64_t k = 0xffffffff81000000ull;
    g.add(lbrSample(k + 0x10, { br(k + 0x20, k + 0x30), br(k + 0x40, k + 0x50) })); // kernel only, by address
    g.add(lbrSample(k + 0x10, { br(0x1000, 0x1010, 0, 0, 2) })); // PERF_BR_PRIV_KERNEL says so (PRIV_SAVE)
    g.add(lbrSample(k + 0x10, {})); // empty
    g.add(lbrSample(0x1010, { br(k + 0x20, 0x1010) })); // a return to user space: a user entry
    g.add(lbrSample(0x1010, { br(0x1010, 0x1020, 0, 0, 1) })); // PERF_BR_PRIV_USER
    const auto r = g.report(sym);
    EXPECT_EQ(r.samples, 5u);
    EXPECT_EQ(r.emptyStacks, 3u);
    EXPECT_EQ(r.kernelOnlyStacks, 2u);
}

TEST(EdgeKinds, BranchTypeTable)
{
    EXPECT_EQ(edgeKindOfBranchType(perf::BrUnknown, 0), EdgeKind::Unknown);
    EXPECT_EQ(edgeKindOfBranchType(perf::BrCond, 0), EdgeKind::Jump);
    EXPECT_EQ(edgeKindOfBranchType(perf::BrInd, 0), EdgeKind::Jump);
    EXPECT_EQ(edgeKindOfBranchType(perf::BrIndCall, 0), EdgeKind::Call);
    EXPECT_EQ(edgeKindOfBranchType(perf::BrCondCall, 0), EdgeKind::Call);
    EXPECT_EQ(edgeKindOfBranchType(perf::BrCondRet, 0), EdgeKind::Return);
    EXPECT_EQ(edgeKindOfBranchType(perf::BrIrq, 0), EdgeKind::Trap);
    EXPECT_EQ(edgeKindOfBranchType(perf::BrEret, 0), EdgeKind::Trap);
    EXPECT_EQ(edgeKindOfBranchType(perf::BrNoTx, 0), EdgeKind::Unknown);
    EXPECT_EQ(edgeKindOfBranchType(perf::BrExtendAbi, 2), EdgeKind::Trap); // PERF_BR_NEW_FAULT_INST
    EXPECT_EQ(edgeKindOfBranchType(perf::BrExtendAbi, 9), EdgeKind::Unknown);
}

TEST(EdgeKinds, X86InstructionTable)
{
    struct Case {
        std::vector<std::uint8_t> bytes;
        EdgeKind kind;
    };
    const Case cases[] = {
        { { 0xe8, 0, 0, 0, 0 }, EdgeKind::Call }, // call rel32
        { { 0xff, 0xd0 }, EdgeKind::Call }, // call *%rax (FF /2)
        { { 0x41, 0xff, 0x14, 0x24 }, EdgeKind::Call }, // call *(%r12): REX.B
        { { 0xff, 0x25, 0, 0, 0, 0 }, EdgeKind::Jump }, // jmp *rel(%rip) (FF /4): a PLT stub
        { { 0xf2, 0xff, 0xe0 }, EdgeKind::Jump }, // bnd jmp *%rax
        { { 0x3e, 0xff, 0xd0 }, EdgeKind::Call }, // notrack call *%rax
        { { 0xc3 }, EdgeKind::Return }, // ret
        { { 0xf3, 0xc3 }, EdgeKind::Return }, // rep ret
        { { 0xc2, 0x08, 0x00 }, EdgeKind::Return }, // ret $8
        { { 0xeb, 0xfe }, EdgeKind::Jump }, // jmp rel8 (a back-edge)
        { { 0x75, 0xf0 }, EdgeKind::Jump }, // jne rel8
        { { 0x0f, 0x85, 0, 0, 0, 0 }, EdgeKind::Jump }, // jne rel32
        { { 0xe2, 0xfc }, EdgeKind::Jump }, // loop
        { { 0x0f, 0x05 }, EdgeKind::Trap }, // syscall
        { { 0xcd, 0x80 }, EdgeKind::Trap }, // int $0x80
        { { 0x48, 0x89, 0xc7 }, EdgeKind::Unknown }, // mov %rax,%rdi: not a branch (an interrupted instruction)
        { { 0xff }, EdgeKind::Unknown }, // cut short
        { {}, EdgeKind::Unknown },
    };
    for (const auto& c : cases)
        EXPECT_EQ(edgeKindOfInstruction(c.bytes, kElfMachineX86_64), c.kind)
            << std::hex << (c.bytes.empty() ? 0 : int(c.bytes[0]));
    EXPECT_EQ(edgeKindOfInstruction(std::vector<std::uint8_t> { 0x40, 0xc3 }, kElfMachine386), EdgeKind::Unknown)
        << "0x40 is INC in 32-bit code, not REX";
    EXPECT_EQ(edgeKindOfInstruction(std::vector<std::uint8_t> { 0xc3 }, 243), EdgeKind::Unknown)
        << "RISC-V: not decoded";
}

TEST(EdgeKinds, Aarch64InstructionTable)
{
    auto le = [](std::uint32_t i) {
        return std::vector<std::uint8_t> { std::uint8_t(i), std::uint8_t(i >> 8), std::uint8_t(i >> 16),
            std::uint8_t(i >> 24) };
    };
    EXPECT_EQ(edgeKindOfInstruction(le(0x94000010), kElfMachineAarch64), EdgeKind::Call); // bl
    EXPECT_EQ(edgeKindOfInstruction(le(0xd63f0020), kElfMachineAarch64), EdgeKind::Call); // blr x1
    EXPECT_EQ(edgeKindOfInstruction(le(0xd65f03c0), kElfMachineAarch64), EdgeKind::Return); // ret
    EXPECT_EQ(edgeKindOfInstruction(le(0xd65f0bff), kElfMachineAarch64), EdgeKind::Return); // retaa
    EXPECT_EQ(edgeKindOfInstruction(le(0xd61f0200), kElfMachineAarch64), EdgeKind::Jump); // br x16
    EXPECT_EQ(edgeKindOfInstruction(le(0x17fffffe), kElfMachineAarch64), EdgeKind::Jump); // b .-8 (back-edge)
    EXPECT_EQ(edgeKindOfInstruction(le(0x54ffffc1), kElfMachineAarch64), EdgeKind::Jump); // b.ne
    EXPECT_EQ(edgeKindOfInstruction(le(0xb4000040), kElfMachineAarch64), EdgeKind::Jump); // cbz x0
    EXPECT_EQ(edgeKindOfInstruction(le(0x37000040), kElfMachineAarch64), EdgeKind::Jump); // tbnz w0, #0
    EXPECT_EQ(edgeKindOfInstruction(le(0xd4000001), kElfMachineAarch64), EdgeKind::Trap); // svc #0
    EXPECT_EQ(edgeKindOfInstruction(le(0xd69f03e0), kElfMachineAarch64), EdgeKind::Trap); // eret
    EXPECT_EQ(edgeKindOfInstruction(le(0x8b020020), kElfMachineAarch64), EdgeKind::Unknown); // add x0, x1, x2
    EXPECT_EQ(edgeKindOfInstruction(std::vector<std::uint8_t> { 0xc0, 0x03 }, kElfMachineAarch64), EdgeKind::Unknown);
}
