// SPDX-License-Identifier: GPL-3.0-or-later
// RecordWriter round trips through the real RecordDecoder (byte-exact layouts), and the Symbolizer's kallsyms and
// mapping rules.
#include "pmu/RecordDecoder.h"
#include "pmu/Symbolizer.h"
#include "simpmu/RecordWriter.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace rdt::pmu;

TEST(RecordWriter, SampleRoundTripsEveryWrittenField)
{
    EventAttr attr;
    attr.type = 4;
    attr.size = perf::AttrSizeVer8;
    attr.sampleType = perf::SampleIdentifier | perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SampleAddr
        | perf::SampleId | perf::SampleCpu | perf::SamplePeriod | perf::SampleCallchain | perf::SampleBranchStack
        | perf::SampleWeightStruct | perf::SampleDataSrc | perf::SamplePhysAddr | perf::SampleDataPageSize;
    attr.branchSampleType = perf::BranchAny | perf::BranchHwIndex;
    Sample s;
    s.misc = perf::MiscUser | perf::MiscExactIp;
    s.identifier = s.id = 77;
    s.ip = 0x401234;
    s.pid = 10;
    s.tid = 11;
    s.time = 123456789;
    s.addr = 0x7fff0040;
    s.cpu = 3;
    s.period = 1000;
    s.callchain = { perf::ContextUser, 0x401234, 0x401100 };
    s.hwIdx = 5;
    s.branches = { BranchEntry { 0x401200, 0x401000, BranchEntry::makeFlags(true, false, 77, perf::BrCall) },
        BranchEntry { 0x400f00, 0x401200, BranchEntry::makeFlags(false, true, 3, perf::BrRet) } };
    s.weight.var1 = 250;
    s.weight.var2 = 260;
    s.weight.var3 = 7;
    s.dataSrc = DataSource::encode(DataSource::OpLoad, DataSource::LvlHit | DataSource::LvlL3, DataSource::SnoopHitm,
        DataSource::LockNa, DataSource::TlbHit, DataSource::LvlNumL3);
    s.physAddr = 0x12340040;
    s.dataPageSize = 4096;
    std::vector<std::byte> bytes;
    ASSERT_TRUE(RecordWriter::sample(attr, s, bytes));
    ASSERT_EQ(bytes.size() % 8, 0u);
    RecordDecoder dec;
    const std::uint64_t id = 77;
    dec.addEvent(attr, std::span<const std::uint64_t>(&id, 1));
    DecodedRecord r;
    ASSERT_TRUE(dec.decode(bytes, r));
    ASSERT_EQ(r.kind, RecordKind::Sample);
    const Sample& d = r.sample;
    EXPECT_TRUE(d.exactIp());
    EXPECT_EQ(d.identifier, 77u);
    EXPECT_EQ(d.ip, s.ip);
    EXPECT_EQ(d.pid, 10u);
    EXPECT_EQ(d.tid, 11u);
    EXPECT_EQ(d.time, s.time);
    EXPECT_EQ(d.addr, s.addr);
    EXPECT_EQ(d.cpu, 3u);
    EXPECT_EQ(d.period, 1000u);
    EXPECT_EQ(d.callchain, s.callchain);
    ASSERT_EQ(d.branches.size(), 2u);
    EXPECT_TRUE(d.hasHwIdx);
    EXPECT_EQ(d.hwIdx, 5u);
    EXPECT_TRUE(d.branches[0].mispred());
    EXPECT_EQ(d.branches[0].cycles(), 77u);
    EXPECT_EQ(d.branches[0].type(), perf::BrCall);
    EXPECT_EQ(d.branches[1].type(), perf::BrRet);
    EXPECT_EQ(d.latency(), 250u);
    EXPECT_EQ(d.weight.var2, 260u);
    EXPECT_EQ(d.weight.var3, 7u);
    EXPECT_TRUE(d.dataSource().hitm());
    EXPECT_EQ(d.dataSource().level(), MemLevel::L3);
    EXPECT_EQ(d.physAddr, s.physAddr);
    EXPECT_EQ(d.dataPageSize, 4096u);
}

TEST(RecordWriter, Mmap2AndCommWithSampleIdTrailer)
{
    EventAttr attr;
    attr.size = perf::AttrSizeVer8;
    attr.sampleType = perf::SampleTid | perf::SampleTime | perf::SampleCpu | perf::SampleIdentifier;
    attr.setFlag(EventAttr::FlagSampleIdAll, true);
    RecordDecoder dec;
    dec.addEvent(attr);
    SampleIdTrailer id;
    id.pid = id.tid = 42;
    id.time = 99;
    id.cpu = 1;
    id.identifier = 5;
    MmapRecord m;
    m.pid = m.tid = 42;
    m.addr = 0x400000;
    m.len = 0x2000;
    m.pgoff = 0x1000;
    m.prot = 5;
    m.filename = "/usr/bin/seven"; // 14 chars + NUL: padded to 16
    std::vector<std::byte> bytes;
    RecordWriter::mmap2(attr, m, id, bytes);
    DecodedRecord r;
    ASSERT_TRUE(dec.decode(bytes, r));
    ASSERT_EQ(r.kind, RecordKind::Mmap);
    EXPECT_TRUE(r.mmap.isMmap2);
    EXPECT_EQ(r.mmap.filename, "/usr/bin/seven");
    EXPECT_EQ(r.mmap.pgoff, 0x1000u);
    EXPECT_TRUE(r.mmap.executable());
    EXPECT_TRUE(r.sampleId.present);
    EXPECT_EQ(r.sampleId.time, 99u);
    EXPECT_EQ(r.sampleId.identifier, 5u);
    bytes.clear();
    RecordWriter::comm(attr, 42, 42, "worker", true, id, bytes);
    ASSERT_TRUE(dec.decode(bytes, r));
    ASSERT_EQ(r.kind, RecordKind::Comm);
    EXPECT_EQ(r.comm.comm, "worker");
    EXPECT_TRUE(r.comm.exec);
    EXPECT_EQ(r.sampleId.cpu, 1u);
}

TEST(RecordWriter, RefusesFieldsItCannotWrite)
{
    EventAttr attr;
    attr.sampleType = perf::SampleIp | perf::SampleRaw;
    std::vector<std::byte> bytes;
    EXPECT_FALSE(RecordWriter::sample(attr, Sample {}, bytes));
}

TEST(Symbolizer, KallsymsWhenAddressesAreVisible)
{
    char path[] = "/tmp/rdtscope-kallsyms-XXXXXX";
    const int fd = ::mkstemp(path);
    ASSERT_GE(fd, 0);
    ::close(fd);
    {
        std::ofstream out(path);
        out << "ffffffff81000000 T _stext\nffffffff81000100 t do_syscall_64\nffffffff81000200 D some_data\n"
               "ffffffff81000300 T entry_SYSCALL_64\n";
    }
    Symbolizer sym;
    ASSERT_TRUE(sym.loadKallsyms(path));
    EXPECT_EQ(sym.resolve(1, 0xffffffff81000180).function, "do_syscall_64");
    EXPECT_EQ(sym.resolve(1, 0xffffffff81000180).offset, 0x80u);
    EXPECT_EQ(sym.resolve(1, 0xffffffff81000250).function, "do_syscall_64") << "data symbols are skipped";
    EXPECT_EQ(sym.resolve(1, 0xffffffff81000250).module, "[kernel.kallsyms]");
    {
        std::ofstream out(path);
        out << "0000000000000000 T _stext\n0000000000000000 t do_syscall_64\n";
    }
    Symbolizer hidden;
    auto st = hidden.loadKallsyms(path);
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().advice.find("kptr_restrict"), std::string::npos);
    EXPECT_EQ(hidden.resolve(1, 0xffffffff81000180).function, "[kernel] 0xffffffff81000180");
    ::unlink(path);
}

TEST(Symbolizer, ForkInheritsMapsAndExecClearsThem)
{
    Symbolizer sym;
    sym.addSymbolTable(0, "[none]", {});
    MmapRecord m;
    m.isMmap2 = true;
    m.prot = 4;
    m.addr = 0x1000;
    m.len = 0x1000;
    m.filename = "/nonexistent/a.out";
    sym.addMapping(5, m);
    DecodedRecord fork;
    fork.kind = RecordKind::Fork;
    fork.task.pid = 6;
    fork.task.ppid = 5;
    sym.onRecord(fork);
    EXPECT_EQ(sym.resolve(6, 0x1010).module, "a.out");
    DecodedRecord exec;
    exec.kind = RecordKind::Comm;
    exec.comm.pid = 6;
    exec.comm.comm = "other";
    exec.comm.exec = true;
    sym.onRecord(exec);
    EXPECT_EQ(sym.comm(6), "other");
    EXPECT_EQ(sym.resolve(6, 0x1010).function, "[unknown] 0x1010");
    EXPECT_EQ(sym.resolve(5, 0x1010).module, "a.out") << "the parent keeps its maps";
    // a non-executable mapping is ignored
    MmapRecord data = m;
    data.prot = 3;
    data.addr = 0x9000;
    sym.addMapping(5, data);
    EXPECT_EQ(sym.resolve(5, 0x9010).function, "[unknown] 0x9010");
}
