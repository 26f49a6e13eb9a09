// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Byte-exact perf.data streams with every record type and header feature perf 6.14 and later writes, built field
// by field from the layouts in the kernel's include/uapi/linux/perf_event.h (kernel records), perf's
// tools/lib/perf/include/perf/event.h (user records) and tools/perf/util/header.c (feature sections), so the
// reader is checked against the layouts and not against itself. The committed fixtures in tests/data/perf
// (perf614-*.data) are these bytes; generated_fixtures_test.cpp regenerates them and compares.

#include "../pmu/DecodeBytes.h"
#include "perfdata/PerfDataFormat.h"
#include "pmu/RecordDecoder.h"

#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace rdt::perfdata::test {

using rdt::pmu::test::Bytes;
namespace perf = rdt::pmu::perf;

class Perf614Streams {
public:
    /// Record types and how many of each the streams below hold (checked against `report --stats`).
    using Counts = std::map<std::uint32_t, std::uint64_t>;

    /// Pipe mode: HEADER_ATTR for two software events (no cycles), HEADER_FEATURE sections, every user record
    /// perf synthesizes (ID_INDEX, THREAD_MAP, CPU_MAP, TIME_CONV, STAT*, AUXTRACE_INFO/ERROR, FINISHED_INIT,
    /// EVENT_UPDATE, HEADER_BUILD_ID, FINISHED_ROUND) and every kernel record type 1-21.
    static std::vector<std::byte> recordsPipe(Counts* counts = nullptr)
    {
        Counts c;
        std::vector<std::byte> out = Bytes().u64(MagicLE).u64(16).bytes();
        add(out, c, attrRecord(cpuClock(), kIdClock));
        add(out, c, attrRecord(pageFaults(), kIdFaults));
        for (const auto& [feature, body] : features())
            add(out, c, Bytes::record(perf::RecordHeaderFeature, 0, Bytes().u64(feature).raw(body.bytes())));
        appendUserRecords(out, c);
        appendKernelRecords(out, c);
        if (counts) *counts = c;
        return out;
    }

    /// File mode ("PERFILE2"): the same events in the attr section, the same records in the data section (less
    /// the pipe-only HEADER_ATTR / HEADER_FEATURE), the features as sections indexed after the data.
    static std::vector<std::byte> recordsFile(Counts* counts = nullptr)
    {
        Counts c;
        std::vector<std::byte> data;
        appendUserRecords(data, c);
        appendKernelRecords(data, c);
        const auto feats = features();
        constexpr std::uint64_t attrSize = perf::AttrSizeVer8 + 16; // attr + perf_file_section ids
        const std::uint64_t idsAt = FileHeaderSize;
        const std::uint64_t attrsAt = idsAt + 16; // two ids of one u64 each
        const std::uint64_t dataAt = attrsAt + 2 * attrSize;
        Bytes f;
        f.u64(MagicLE).u64(FileHeaderSize).u64(attrSize);
        f.u64(attrsAt).u64(2 * attrSize); // attrs
        f.u64(dataAt).u64(data.size()); // data
        f.u64(0).u64(0); // event_types (unused since perf 3.x)
        std::uint64_t bits[4] = {};
        for (const auto& [feature, body] : feats)
            bits[feature / 64] |= 1ull << (feature % 64);
        for (auto b : bits)
            f.u64(b);
        f.u64(kIdClock).u64(kIdFaults);
        f.raw(pmu::serializeEventAttr(cpuClock(), perf::AttrSizeVer8)).u64(idsAt).u64(8);
        f.raw(pmu::serializeEventAttr(pageFaults(), perf::AttrSizeVer8)).u64(idsAt + 8).u64(8);
        f.raw(data);
        // The feature index: one perf_file_section per set bit, in bit order, then the sections themselves.
        std::uint64_t sectionAt = dataAt + data.size() + 16 * feats.size();
        for (const auto& [feature, body] : feats) {
            f.u64(sectionAt).u64(body.size());
            sectionAt += body.size();
        }
        for (const auto& [feature, body] : feats)
            f.raw(body.bytes());
        if (counts) *counts = c;
        return f.bytes();
    }

    /// `perf record -z -e cpu-clock,page-faults,context-switches -o -`: three events, none of them cycles, their
    /// samples (told apart by SAMPLE_IDENTIFIER) inside two COMPRESSED2 records, one sample cut across them.
    static std::vector<std::byte> multiEventCompressedPipe(Counts* counts = nullptr)
    {
        Counts c;
        std::vector<std::byte> out = Bytes().u64(MagicLE).u64(16).bytes();
        add(out, c, attrRecord(cpuClock(), kIdClock));
        add(out, c, attrRecord(pageFaults(), kIdFaults));
        add(out, c, attrRecord(contextSwitches(), kIdSwitches));
        // HEADER_COMPRESSED {u32 version, type (1 zstd), level, ratio, mmap_len} (header.c write_compressed)
        add(out, c,
            Bytes::record(
                perf::RecordHeaderFeature, 0, Bytes().u64(FeatCompressed).u32(0).u32(1).u32(1).u32(3).u32(528384)));
        add(out, c, Bytes::record(perf::RecordFinishedInit, 0, Bytes()));
        Counts inner;
        std::vector<std::byte> plain;
        add(plain, inner, comm(100, "worker"));
        const std::uint64_t ids[] = { kIdClock, kIdFaults, kIdSwitches };
        for (int i = 0; i < 30; ++i)
            add(plain, inner,
                sample(
                    ids[i % 3], 0x401000 + 0x10 * static_cast<unsigned>(i), 100, static_cast<std::uint64_t>(1000 + i)));
        std::vector<std::byte> z(ZSTD_compressBound(plain.size()));
        const std::size_t zn = ZSTD_compress(z.data(), z.size(), plain.data(), plain.size(), 1);
        z.resize(ZSTD_isError(zn) ? 0 : zn);
        const std::size_t cut = z.size() / 2;
        add(out, c, compressed2({ z.data(), cut }));
        add(out, c, compressed2({ z.data() + cut, z.size() - cut }));
        add(out, c, Bytes::record(perf::RecordFinishedRound, 0, Bytes()));
        for (const auto& [type, n] : inner)
            c[type] += n;
        if (counts) *counts = c;
        return out;
    }

private:
    static constexpr std::uint64_t kIdClock = 11, kIdFaults = 12, kIdSwitches = 13;
    static constexpr std::uint64_t kSampleType
        = perf::SampleIdentifier | perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SamplePeriod;

    static pmu::EventAttr softwareEvent(std::uint64_t config)
    {
        pmu::EventAttr a;
        a.type = 1; // PERF_TYPE_SOFTWARE
        a.size = perf::AttrSizeVer8;
        a.config = config;
        a.samplePeriod = 4000;
        a.sampleType = kSampleType;
        a.readFormat = perf::ReadId;
        a.setFlag(pmu::EventAttr::FlagDisabled, true);
        a.setFlag(pmu::EventAttr::FlagFreq, true);
        a.setFlag(pmu::EventAttr::FlagSampleIdAll, true);
        a.setFlag(pmu::EventAttr::FlagMmap2, true);
        a.setFlag(pmu::EventAttr::FlagComm, true);
        a.setFlag(pmu::EventAttr::FlagCommExec, true);
        return a;
    }
    static pmu::EventAttr cpuClock() { return softwareEvent(0); } // PERF_COUNT_SW_CPU_CLOCK
    static pmu::EventAttr pageFaults() { return softwareEvent(2); } // PERF_COUNT_SW_PAGE_FAULTS
    static pmu::EventAttr contextSwitches() { return softwareEvent(3); } // PERF_COUNT_SW_CONTEXT_SWITCHES

    static void add(std::vector<std::byte>& out, Counts& c, const std::vector<std::byte>& record)
    {
        out.insert(out.end(), record.begin(), record.end());
        std::uint32_t type = 0;
        std::memcpy(&type, record.data(), 4);
        ++c[type];
    }

    /// HEADER_ATTR {header; perf_event_attr (attr.size bytes); u64 id[]} (event.h perf_record_header_attr)
    static std::vector<std::byte> attrRecord(const pmu::EventAttr& a, std::uint64_t id)
    {
        return Bytes::record(
            perf::RecordHeaderAttr, 0, Bytes().raw(pmu::serializeEventAttr(a, perf::AttrSizeVer8)).u64(id));
    }

    /// The sample_id trailer of kernel records for kSampleType: {u32 pid, tid; u64 time; u64 identifier}
    /// (uapi "struct sample_id": TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER in that order).
    static Bytes& sampleId(Bytes& b, std::uint64_t id = kIdClock, std::uint32_t pid = 100, std::uint64_t time = 500)
    {
        return b.u32(pid).u32(pid).u64(time).u64(id);
    }

    /// PERF_RECORD_SAMPLE for kSampleType: {u64 identifier; u64 ip; u32 pid, tid; u64 time; u64 period}
    static std::vector<std::byte> sample(std::uint64_t id, std::uint64_t ip, std::uint32_t pid, std::uint64_t time)
    {
        return Bytes::record(
            perf::RecordSample, perf::MiscUser, Bytes().u64(id).u64(ip).u32(pid).u32(pid).u64(time).u64(4000));
    }

    static std::vector<std::byte> comm(std::uint32_t pid, const std::string& name)
    {
        Bytes b;
        b.u32(pid).u32(pid).str(name);
        return Bytes::record(perf::RecordComm, perf::MiscCommExec, sampleId(b, kIdClock, pid));
    }

    static std::vector<std::byte> compressed2(std::span<const std::byte> z)
    {
        // COMPRESSED2 {header; u64 data_size; char data[]} padded to 8 (event.h perf_record_compressed2)
        Bytes b;
        b.u64(z.size());
        for (auto v : z)
            b.u8(std::to_integer<std::uint8_t>(v));
        while (b.size() % 8)
            b.u8(0);
        return Bytes::record(perf::RecordCompressed2, 0, b);
    }

    /// struct perf_header_string: {u32 len; char str[len]}, len the string + NUL padded to 64 (header.c
    /// do_write_string, NAME_ALIGN).
    static Bytes& headerString(Bytes& b, const std::string& s)
    {
        const std::uint32_t len = static_cast<std::uint32_t>((s.size() + 1 + 63) / 64 * 64);
        b.u32(len);
        for (char ch : s)
            b.u8(static_cast<std::uint8_t>(ch));
        b.fill(len - s.size(), 0);
        return b;
    }

    /// Feature sections as perf 6.14 writes them (header.c write_*), by feature id.
    static std::vector<std::pair<unsigned, Bytes>> features()
    {
        std::vector<std::pair<unsigned, Bytes>> f;
        auto str = [&](unsigned id, const std::string& s) {
            Bytes b;
            f.emplace_back(id, headerString(b, s));
        };
        str(FeatHostname, "fixture-host");
        str(FeatOsRelease, "6.14.0-fixture");
        str(FeatVersion, "6.14.0");
        str(FeatArch, "x86_64");
        f.emplace_back(FeatNrCpus, Bytes().u32(2).u32(2));
        str(FeatCpuDesc, "Fixture CPU @ 2.00GHz");
        str(FeatCpuId, "GenuineIntel,6,143,8");
        f.emplace_back(FeatTotalMem, Bytes().u64(24u << 20));
        {
            Bytes b;
            b.u32(3);
            headerString(b, "perf");
            headerString(b, "record");
            headerString(b, "-e cpu-clock,page-faults");
            f.emplace_back(FeatCmdline, b);
        }
        { // PMU_MAPPINGS {u32 nr; {u32 type; string name}[nr]}
            Bytes b;
            b.u32(2).u32(1);
            headerString(b, "software");
            b.u32(4);
            headerString(b, "cpu");
            f.emplace_back(FeatPmuMappings, b);
        }
        { // CACHE {u32 version 1; u32 cnt; {u32 level, line_size, sets, ways; string type, size, map}[cnt]}
            Bytes b;
            b.u32(1).u32(2);
            b.u32(1).u32(64).u32(64).u32(12);
            headerString(b, "Data");
            headerString(b, "48K");
            headerString(b, "0-1");
            b.u32(3).u32(64).u32(98304).u32(15);
            headerString(b, "Unified");
            headerString(b, "105M");
            headerString(b, "0-1");
            f.emplace_back(FeatCache, b);
        }
        f.emplace_back(FeatSampleTime, Bytes().u64(500).u64(2000)); // {u64 first, last}
        f.emplace_back(FeatClockId, Bytes().u64(1)); // u64 clockid_res_ns
        { // BPF_PROG_INFO {u32 count; {u32 info_len, data_len; u64 arrays; info[info_len]; data[data_len]}[count]}
            Bytes b;
            b.u32(1).u32(16).u32(8).u64(0).fill(16, 0xb1).fill(8, 0xb2);
            f.emplace_back(FeatBpfProgInfo, b);
        }
        { // BPF_BTF {u32 count; {u32 id; u32 data_size; data[data_size]}[count]}
            Bytes b;
            b.u32(1).u32(7).u32(12).fill(12, 0xbf);
            f.emplace_back(FeatBpfBtf, b);
        }
        { // CPU_PMU_CAPS {u32 nr_caps; {string name; string value}[nr_caps]}
            Bytes b;
            b.u32(1);
            headerString(b, "branches");
            headerString(b, "32");
            f.emplace_back(FeatCpuPmuCaps, b);
        }
        f.emplace_back(
            FeatClockData, Bytes().u32(1).u32(1).u64(1700000000000000000ull).u64(500)); // version, clockid, wall, clk
        { // HYBRID_TOPOLOGY {u32 nr; {string pmu_name; string cpus}[nr]}
            Bytes b;
            b.u32(1);
            headerString(b, "cpu_core");
            headerString(b, "0-1");
            f.emplace_back(FeatHybridTopology, b);
        }
        { // PMU_CAPS {u32 nr_pmu; {u32 nr_caps; {string name; string value}[nr_caps]; string pmu_name}[nr_pmu]}
            Bytes b;
            b.u32(1).u32(1);
            headerString(b, "max_precise");
            headerString(b, "3");
            headerString(b, "cpu");
            f.emplace_back(FeatPmuCaps, b);
        }
        return f;
    }

    /// The records perf itself synthesizes (tools/lib/perf/include/perf/event.h), with their real layouts.
    static void appendUserRecords(std::vector<std::byte>& out, Counts& c)
    {
        // EVENT_UPDATE {header; u64 type (2 = NAME); u64 id; char name[]}
        add(out, c, Bytes::record(perf::RecordEventUpdate, 0, Bytes().u64(2).u64(kIdClock).str("cpu-clock")));
        // ID_INDEX {header; u64 nr; {u64 id, idx, cpu, tid}[nr]; {u64 machine_pid, vcpu}[nr] (perf 6.1+)}
        add(out, c,
            Bytes::record(perf::RecordIdIndex, 0,
                Bytes()
                    .u64(2)
                    .u64(kIdClock)
                    .u64(0)
                    .u64(~0ull)
                    .u64(100)
                    .u64(kIdFaults)
                    .u64(1)
                    .u64(~0ull)
                    .u64(100)
                    .u64(0)
                    .u64(0)
                    .u64(0)
                    .u64(0)));
        // THREAD_MAP {header; u64 nr; {u64 pid; char comm[16]}[nr]}
        {
            Bytes b;
            b.u64(1).u64(100);
            const char name[16] = "worker";
            for (char ch : name)
                b.u8(static_cast<std::uint8_t>(ch));
            add(out, c, Bytes::record(perf::RecordThreadMap, 0, b));
        }
        // CPU_MAP {header; perf_record_cpu_map_data {u16 type = 2 RANGE_CPUS; u8 any_cpu; u8 pad; u16 start, end}}
        add(out, c, Bytes::record(perf::RecordCpuMap, 0, Bytes().u16(2).u8(0).u8(0).u16(0).u16(1)));
        // TIME_CONV {header; u64 time_shift, time_mult, time_zero, time_cycles, time_mask; u8 cap_user_time_zero,
        // cap_user_time_short, reserved[6]}
        add(out, c,
            Bytes::record(perf::RecordTimeConv, 0,
                Bytes().u64(31).u64(1570000000).u64(12345).u64(0).u64(~0ull).u8(1).u8(0).fill(6, 0)));
        // STAT_CONFIG {header; u64 nr; {u64 tag, val}[nr]}
        add(out, c, Bytes::record(perf::RecordStatConfig, 0, Bytes().u64(1).u64(0).u64(1)));
        // STAT {header; u64 id; u32 cpu, thread; u64 val, ena, run}
        add(out, c, Bytes::record(perf::RecordStat, 0, Bytes().u64(kIdClock).u32(0).u32(0).u64(9).u64(10).u64(10)));
        // STAT_ROUND {header; u64 type; u64 time}
        add(out, c, Bytes::record(perf::RecordStatRound, 0, Bytes().u64(1).u64(1000)));
        // AUXTRACE_INFO {header; u32 type; u32 reserved; u64 priv[]}
        add(out, c, Bytes::record(perf::RecordAuxtraceInfo, 0, Bytes().u32(0).u32(0).u64(0)));
        // AUXTRACE_ERROR {header; u32 type, code, cpu, pid, tid, fmt; u64 ip; char msg[64]; u32 machine_pid, vcpu;
        // u64 time}
        add(out, c,
            Bytes::record(perf::RecordAuxtraceError, 0,
                Bytes().u32(1).u32(2).u32(0).u32(100).u32(100).u32(2).u64(0x401000).fill(64, 0).u32(0).u32(0).u64(7)));
        // HEADER_BUILD_ID {header (misc BUILD_ID_SIZE); u32 pid; u8 build_id[20]; u8 size; u8 reserved[3];
        // char filename[]}
        add(out, c,
            Bytes::record(perf::RecordHeaderBuildId, static_cast<std::uint16_t>(MiscBuildIdSize | perf::MiscUser),
                Bytes().u32(100).fill(20, 0xab).u8(20).fill(3, 0).str("/usr/bin/worker")));
        add(out, c, Bytes::record(perf::RecordFinishedInit, 0, Bytes()));
    }

    /// Every kernel record type 1-21 (uapi enum perf_event_type layouts), each with its sample_id trailer.
    static void appendKernelRecords(std::vector<std::byte>& out, Counts& c)
    {
        auto kernel = [&](std::uint32_t type, std::uint16_t misc, Bytes body) {
            add(out, c, Bytes::record(type, misc, sampleId(body)));
        };
        add(out, c, comm(100, "worker"));
        // MMAP {u32 pid, tid; u64 addr, len, pgoff; char filename[]}
        kernel(perf::RecordMmap, perf::MiscUser,
            Bytes().u32(100).u32(100).u64(0x400000).u64(0x1000).u64(0).str("/usr/bin/worker"));
        // MMAP2 {u32 pid, tid; u64 addr, len, pgoff; u32 maj, min; u64 ino, ino_generation; u32 prot, flags;
        // char filename[]}
        kernel(perf::RecordMmap2, perf::MiscUser,
            Bytes()
                .u32(100)
                .u32(100)
                .u64(0x7f0000000000)
                .u64(0x2000)
                .u64(0)
                .u32(8)
                .u32(1)
                .u64(42)
                .u64(0)
                .u32(5)
                .u32(2)
                .str("/usr/lib/libfixture.so"));
        // FORK / EXIT {u32 pid, ppid, tid, ptid; u64 time}
        kernel(perf::RecordFork, 0, Bytes().u32(101).u32(100).u32(101).u32(100).u64(600));
        // THROTTLE / UNTHROTTLE {u64 time, id, stream_id}
        kernel(perf::RecordThrottle, 0, Bytes().u64(650).u64(kIdClock).u64(kIdClock));
        kernel(perf::RecordUnthrottle, 0, Bytes().u64(660).u64(kIdClock).u64(kIdClock));
        // LOST {u64 id, lost}
        kernel(perf::RecordLost, 0, Bytes().u64(kIdClock).u64(3));
        // LOST_SAMPLES {u64 lost}
        kernel(perf::RecordLostSamples, 0, Bytes().u64(2));
        // AUX {u64 aux_offset, aux_size, flags}
        kernel(perf::RecordAux, 0, Bytes().u64(0).u64(4096).u64(0));
        // ITRACE_START {u32 pid, tid}
        kernel(perf::RecordItraceStart, 0, Bytes().u32(100).u32(100));
        // SWITCH (no body) and SWITCH_CPU_WIDE {u32 next_prev_pid, next_prev_tid}
        kernel(perf::RecordSwitch, perf::MiscSwitchOut, Bytes());
        kernel(perf::RecordSwitchCpuWide, 0, Bytes().u32(0).u32(0));
        // NAMESPACES {u32 pid, tid; u64 nr_namespaces; {u64 dev, inode}[nr]}
        kernel(perf::RecordNamespaces, 0, Bytes().u32(100).u32(100).u64(1).u64(4).u64(4026531836ull));
        // KSYMBOL {u64 addr; u32 len; u16 ksym_type (1 BPF); u16 flags; char name[]}
        kernel(perf::RecordKsymbol, perf::MiscKernel,
            Bytes().u64(0xffffffffc0001000ull).u32(0x80).u16(1).u16(0).str("bpf_prog_6deef7357e7b4530"));
        // BPF_EVENT {u16 type (1 PROG_LOAD); u16 flags; u32 id; u8 tag[8]}
        kernel(perf::RecordBpfEvent, 0, Bytes().u16(1).u16(0).u32(17).fill(8, 0x6d));
        // CGROUP {u64 id; char path[]}
        kernel(perf::RecordCgroup, 0, Bytes().u64(1).str("/"));
        // TEXT_POKE {u64 addr; u16 old_len, new_len; u8 bytes[]} padded to 8
        kernel(perf::RecordTextPoke, perf::MiscKernel,
            Bytes().u64(0xffffffff81000000ull).u16(1).u16(1).u8(0x90).u8(0xcc).fill(2, 0));
        // AUX_OUTPUT_HW_ID {u64 hw_id}
        kernel(perf::RecordAuxOutputHwId, 0, Bytes().u64(3));
        for (int i = 0; i < 4; ++i)
            add(out, c,
                sample(i % 2 ? kIdFaults : kIdClock, 0x400100 + 0x10 * static_cast<unsigned>(i), 100,
                    static_cast<std::uint64_t>(700 + i)));
        // READ {u32 pid, tid; read_format values: u64 value; u64 id (ReadId)}
        kernel(perf::RecordRead, 0, Bytes().u32(100).u32(100).u64(4).u64(kIdClock));
        kernel(perf::RecordExit, 0, Bytes().u32(101).u32(100).u32(101).u32(100).u64(900));
        add(out, c, Bytes::record(perf::RecordFinishedRound, 0, Bytes()));
    }
};

} // namespace rdt::perfdata::test
