// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Decoded perf_event records: the types the ring reader, the perf.data reader, the simulated PMU and the
// aggregators share. Layouts and constants follow include/uapi/linux/perf_event.h (v6.8); we keep our own copies
// so the ABI is explicit here and nothing depends on the build host's kernel headers.

#include "BranchEntry.h"
#include "BranchStack.h"
#include "DataSource.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace rdt::pmu {

namespace perf {
// enum perf_event_type
enum RecordType : std::uint32_t {
    RecordMmap = 1,
    RecordLost = 2,
    RecordComm = 3,
    RecordExit = 4,
    RecordThrottle = 5,
    RecordUnthrottle = 6,
    RecordFork = 7,
    RecordRead = 8,
    RecordSample = 9,
    RecordMmap2 = 10,
    RecordAux = 11,
    RecordItraceStart = 12,
    RecordLostSamples = 13,
    RecordSwitch = 14,
    RecordSwitchCpuWide = 15,
    RecordNamespaces = 16,
    RecordKsymbol = 17,
    RecordBpfEvent = 18,
    RecordCgroup = 19,
    RecordTextPoke = 20,
    RecordAuxOutputHwId = 21,
    RecordKernelMax,
    // perf tool's user records (tools/perf/util/event.h), only in perf.data files
    RecordUserTypeStart = 64,
    RecordHeaderAttr = 64,
    RecordHeaderEventType = 65,
    RecordHeaderTracingData = 66,
    RecordHeaderBuildId = 67,
    RecordFinishedRound = 68,
    RecordIdIndex = 69,
    RecordAuxtraceInfo = 70,
    RecordAuxtrace = 71,
    RecordAuxtraceError = 72,
    RecordThreadMap = 73,
    RecordCpuMap = 74,
    RecordStatConfig = 75,
    RecordStat = 76,
    RecordStatRound = 77,
    RecordEventUpdate = 78,
    RecordTimeConv = 79,
    RecordHeaderFeature = 80,
    RecordCompressed = 81,
    RecordFinishedInit = 82,
    RecordCompressed2 = 83,
};

// enum perf_event_sample_format
enum SampleType : std::uint64_t {
    SampleIp = 1ull << 0,
    SampleTid = 1ull << 1,
    SampleTime = 1ull << 2,
    SampleAddr = 1ull << 3,
    SampleRead = 1ull << 4,
    SampleCallchain = 1ull << 5,
    SampleId = 1ull << 6,
    SampleCpu = 1ull << 7,
    SamplePeriod = 1ull << 8,
    SampleStreamId = 1ull << 9,
    SampleRaw = 1ull << 10,
    SampleBranchStack = 1ull << 11,
    SampleRegsUser = 1ull << 12,
    SampleStackUser = 1ull << 13,
    SampleWeight = 1ull << 14,
    SampleDataSrc = 1ull << 15,
    SampleIdentifier = 1ull << 16,
    SampleTransaction = 1ull << 17,
    SampleRegsIntr = 1ull << 18,
    SamplePhysAddr = 1ull << 19,
    SampleAux = 1ull << 20,
    SampleCgroup = 1ull << 21,
    SampleDataPageSize = 1ull << 22,
    SampleCodePageSize = 1ull << 23,
    SampleWeightStruct = 1ull << 24,
    SampleMax = 1ull << 25,
};

// enum perf_event_read_format
enum ReadFormat : std::uint64_t {
    ReadTotalTimeEnabled = 1u << 0,
    ReadTotalTimeRunning = 1u << 1,
    ReadId = 1u << 2,
    ReadGroup = 1u << 3,
    ReadLost = 1u << 4,
};

// enum perf_branch_sample_type (bit values)
enum BranchSampleType : std::uint64_t {
    BranchUser = 1u << 0,
    BranchKernel = 1u << 1,
    BranchHv = 1u << 2,
    BranchAny = 1u << 3,
    BranchAnyCall = 1u << 4,
    BranchAnyReturn = 1u << 5,
    BranchIndCall = 1u << 6,
    BranchAbortTx = 1u << 7,
    BranchInTx = 1u << 8,
    BranchNoTx = 1u << 9,
    BranchCond = 1u << 10,
    BranchCallStack = 1u << 11,
    BranchIndJump = 1u << 12,
    BranchCall = 1u << 13,
    BranchNoFlags = 1u << 14,
    BranchNoCycles = 1u << 15,
    BranchTypeSave = 1u << 16,
    BranchHwIndex = 1u << 17,
    BranchPrivSave = 1u << 18,
    BranchCounters = 1u << 19,
};

// perf_event_header.misc
constexpr std::uint16_t MiscCpumodeMask = 0x7;
constexpr std::uint16_t MiscKernel = 1, MiscUser = 2, MiscHypervisor = 3, MiscGuestKernel = 4, MiscGuestUser = 5;
constexpr std::uint16_t MiscProcMapParseTimeout = 1u << 12;
constexpr std::uint16_t MiscMmapData = 1u << 13; ///< also COMM_EXEC on COMM, SWITCH_OUT_PREEMPT on SWITCH
constexpr std::uint16_t MiscCommExec = 1u << 13;
constexpr std::uint16_t MiscExactIp = 1u << 14; ///< also MMAP_BUILD_ID on MMAP2
constexpr std::uint16_t MiscMmapBuildId = 1u << 14;
constexpr std::uint16_t MiscSwitchOut = 1u << 13;

// Callchain context markers (enum perf_callchain_context): entries >= ContextMax are markers, not addresses.
constexpr std::uint64_t ContextHv = static_cast<std::uint64_t>(-32);
constexpr std::uint64_t ContextKernel = static_cast<std::uint64_t>(-128);
constexpr std::uint64_t ContextUser = static_cast<std::uint64_t>(-512);
constexpr std::uint64_t ContextGuest = static_cast<std::uint64_t>(-2048);
constexpr std::uint64_t ContextGuestKernel = static_cast<std::uint64_t>(-2176);
constexpr std::uint64_t ContextGuestUser = static_cast<std::uint64_t>(-2560);
constexpr std::uint64_t ContextMax = static_cast<std::uint64_t>(-4095);
inline bool isContextMarker(std::uint64_t ip)
{
    return ip >= ContextMax;
}

// PERF_BR_* (branch entry type), PERF_BR_SPEC_*, PERF_BR_PRIV_*
enum BranchType : std::uint8_t {
    BrUnknown = 0,
    BrCond = 1,
    BrUncond = 2,
    BrInd = 3,
    BrCall = 4,
    BrIndCall = 5,
    BrRet = 6,
    BrSyscall = 7,
    BrSysret = 8,
    BrCondCall = 9,
    BrCondRet = 10,
    BrEret = 11,
    BrIrq = 12,
    BrSerror = 13,
    BrNoTx = 14,
    BrExtendAbi = 15,
};

constexpr std::uint32_t AttrSizeVer0 = 64; ///< smallest perf_event_attr the kernel ever produced
constexpr std::uint32_t AttrSizeVer8 = 136; ///< the largest this decoder knows; bigger ones are read up to here
constexpr std::size_t HeaderSize = 8; ///< struct perf_event_header
} // namespace perf

/// struct perf_event_header
struct RecordHeader {
    std::uint32_t type = 0;
    std::uint16_t misc = 0;
    std::uint16_t size = 0; ///< whole record including this header
};

/// struct perf_event_attr, any version: fields beyond the attr's own `size` read as zero.
struct EventAttr {
    std::uint32_t type = 0; ///< PERF_TYPE_HARDWARE 0, SOFTWARE 1, TRACEPOINT 2, HW_CACHE 3, RAW 4, BREAKPOINT 5
    std::uint32_t size = 0; ///< as recorded (may be larger than AttrSizeVer8)
    std::uint64_t config = 0;
    std::uint64_t samplePeriod = 0; ///< sample_freq when freq()
    std::uint64_t sampleType = 0; ///< perf::SampleType bits
    std::uint64_t readFormat = 0; ///< perf::ReadFormat bits
    std::uint64_t flags = 0; ///< the bitfield word (disabled .. sigtrap); see the accessors
    std::uint32_t wakeupEvents = 0;
    std::uint32_t bpType = 0;
    std::uint64_t config1 = 0; ///< bp_addr, kprobe_func, uprobe_path; ldlat on Intel load latency
    std::uint64_t config2 = 0;
    std::uint64_t branchSampleType = 0; ///< perf::BranchSampleType bits
    std::uint64_t sampleRegsUser = 0;
    std::uint32_t sampleStackUser = 0;
    std::int32_t clockid = 0;
    std::uint64_t sampleRegsIntr = 0;
    std::uint32_t auxWatermark = 0;
    std::uint16_t sampleMaxStack = 0;
    std::uint32_t auxSampleSize = 0;
    std::uint64_t sigData = 0;
    std::uint64_t config3 = 0;

    bool flag(unsigned bit) const { return ((flags >> bit) & 1u) != 0; }
    bool disabled() const { return flag(0); }
    bool inherit() const { return flag(1); }
    bool pinned() const { return flag(2); }
    bool exclusive() const { return flag(3); }
    bool excludeUser() const { return flag(4); }
    bool excludeKernel() const { return flag(5); }
    bool excludeHv() const { return flag(6); }
    bool excludeIdle() const { return flag(7); }
    bool mmap() const { return flag(8); }
    bool comm() const { return flag(9); }
    bool freq() const { return flag(10); }
    bool inheritStat() const { return flag(11); }
    bool enableOnExec() const { return flag(12); }
    bool task() const { return flag(13); }
    bool watermark() const { return flag(14); }
    unsigned preciseIp() const { return static_cast<unsigned>((flags >> 15) & 3u); }
    bool mmapData() const { return flag(17); }
    bool sampleIdAll() const { return flag(18); }
    bool excludeHost() const { return flag(19); }
    bool excludeGuest() const { return flag(20); }
    bool excludeCallchainKernel() const { return flag(21); }
    bool excludeCallchainUser() const { return flag(22); }
    bool mmap2() const { return flag(23); }
    bool commExec() const { return flag(24); }
    bool useClockid() const { return flag(25); }
    bool contextSwitch() const { return flag(26); }
    bool writeBackward() const { return flag(27); }
    bool namespaces() const { return flag(28); }
    bool ksymbol() const { return flag(29); }
    bool bpfEvent() const { return flag(30); }
    bool auxOutput() const { return flag(31); }
    bool cgroup() const { return flag(32); }
    bool textPoke() const { return flag(33); }
    bool buildId() const { return flag(34); }
    bool inheritThread() const { return flag(35); }
    bool removeOnExec() const { return flag(36); }
    bool sigtrap() const { return flag(37); }
    void setFlag(unsigned bit, bool on) { flags = on ? (flags | (1ull << bit)) : (flags & ~(1ull << bit)); }
    void setPreciseIp(unsigned p) { flags = (flags & ~(3ull << 15)) | (static_cast<std::uint64_t>(p & 3u) << 15); }
    // Bit numbers for setFlag.
    static constexpr unsigned FlagDisabled = 0, FlagExcludeUser = 4, FlagExcludeKernel = 5, FlagExcludeHv = 6,
                              FlagMmap = 8, FlagComm = 9, FlagFreq = 10, FlagEnableOnExec = 12, FlagTask = 13,
                              FlagMmapData = 17, FlagSampleIdAll = 18, FlagMmap2 = 23, FlagCommExec = 24,
                              FlagUseClockid = 25;
};

/// One counter value in a READ field or PERF_RECORD_READ.
struct ReadValue {
    std::uint64_t value = 0;
    std::uint64_t id = 0; ///< when read_format has ID
    std::uint64_t lost = 0; ///< when read_format has LOST
};

/// The read_format layout: single `{value, [enabled], [running], [id], [lost]}` or group
/// `{nr, [enabled], [running], {value, [id], [lost]}[nr]}`.
struct ReadData {
    std::uint64_t timeEnabled = 0;
    std::uint64_t timeRunning = 0;
    std::vector<ReadValue> values; ///< one entry unless read_format has GROUP
};

/// PERF_SAMPLE_WEIGHT_STRUCT (union perf_sample_weight) as x86 fills it.
struct WeightValue {
    std::uint64_t full = 0; ///< the whole u64 (PERF_SAMPLE_WEIGHT)
    std::uint32_t var1 = 0; ///< load latency in core cycles ("weight")
    std::uint16_t var2 = 0; ///< instruction latency (ins_lat), SPR/ADL+
    std::uint16_t var3 = 0; ///< retire latency (retire_lat), newer kernels
};

/// The sample_id trailer of non-sample records when attr.sample_id_all (fields present per sample_type).
struct SampleIdTrailer {
    bool present = false;
    std::uint32_t pid = 0, tid = 0;
    std::uint64_t time = 0;
    std::uint64_t id = 0;
    std::uint64_t streamId = 0;
    std::uint32_t cpu = 0, cpuRes = 0;
    std::uint64_t identifier = 0;
};

/// PERF_RECORD_SAMPLE. `present` says which fields were in the record (attr.sample_type). Vectors keep their
/// capacity when a Sample is reused; the spans (raw, stackUser, aux) and a decoded sample's branches point into the
/// record bytes and are valid only while those bytes are (a ring slot until the tail moves, a copied-out buffer until
/// the next read, a mapped file). A copied Sample owns its branches (BranchStack).
struct Sample {
    std::uint64_t present = 0; ///< perf::SampleType bits of the attr that produced it
    std::uint16_t misc = 0;
    std::uint64_t identifier = 0;
    std::uint64_t ip = 0;
    std::uint32_t pid = 0, tid = 0;
    std::uint64_t time = 0;
    std::uint64_t addr = 0;
    std::uint64_t id = 0;
    std::uint64_t streamId = 0;
    std::uint32_t cpu = 0, cpuRes = 0;
    std::uint64_t period = 0;
    ReadData read;
    std::vector<std::uint64_t> callchain; ///< raw, including context markers (see perf::isContextMarker)
    std::span<const std::byte> raw;
    std::uint64_t branchNr = 0;
    bool hasHwIdx = false;
    std::uint64_t hwIdx = 0; ///< raw LBR index of branches[0]; ~0 = unknown
    BranchStack branches; ///< branches[0] is the most recent; a view of the record's bytes when decoded
    std::vector<std::uint64_t> branchCounters; ///< one per branch when branch_sample_type has COUNTERS
    std::uint64_t regsUserAbi = 0; ///< PERF_SAMPLE_REGS_ABI_NONE 0, _32 1, _64 2
    std::vector<std::uint64_t> regsUser; ///< popcount(sample_regs_user) values, empty when abi is NONE
    std::uint64_t stackUserSize = 0;
    std::span<const std::byte> stackUser;
    std::uint64_t stackUserDynSize = 0;
    WeightValue weight;
    std::uint64_t dataSrc = 0;
    std::uint64_t transaction = 0;
    std::uint64_t regsIntrAbi = 0;
    std::vector<std::uint64_t> regsIntr;
    std::uint64_t physAddr = 0;
    std::uint64_t cgroup = 0;
    std::uint64_t dataPageSize = 0;
    std::uint64_t codePageSize = 0;
    std::span<const std::byte> aux;

    bool has(std::uint64_t sampleTypeBit) const { return (present & sampleTypeBit) != 0; }
    DataSource dataSource() const { return DataSource::decode(dataSrc); }
    std::uint16_t cpumode() const { return misc & perf::MiscCpumodeMask; }
    bool exactIp() const { return (misc & perf::MiscExactIp) != 0; }
    /// Load latency in cycles: WEIGHT_STRUCT's var1 or the whole WEIGHT.
    std::uint64_t latency() const { return has(perf::SampleWeightStruct) ? weight.var1 : weight.full; }
};

/// PERF_RECORD_MMAP and PERF_RECORD_MMAP2 (isMmap2), in either MMAP2 form (inode or build-id).
struct MmapRecord {
    bool isMmap2 = false;
    std::uint32_t pid = 0, tid = 0;
    std::uint64_t addr = 0, len = 0, pgoff = 0;
    bool hasBuildId = false; ///< MMAP2 with misc MMAP_BUILD_ID
    std::uint8_t buildIdSize = 0;
    std::uint8_t buildId[20] = {};
    std::uint32_t maj = 0, min = 0;
    std::uint64_t ino = 0, inoGeneration = 0;
    std::uint32_t prot = 0, flags = 0;
    std::string filename;
    bool executable() const { return !isMmap2 || (prot & 4u) != 0; } ///< PROT_EXEC (MMAP has no prot: assume so)
};

/// PERF_RECORD_COMM
struct CommRecord {
    std::uint32_t pid = 0, tid = 0;
    std::string comm;
    bool exec = false; ///< misc COMM_EXEC: the name changed because of exec()
};

/// PERF_RECORD_FORK and PERF_RECORD_EXIT
struct TaskRecord {
    std::uint32_t pid = 0, ppid = 0, tid = 0, ptid = 0;
    std::uint64_t time = 0;
};

/// PERF_RECORD_LOST: `lost` records were dropped because the ring was full.
struct LostRecord {
    std::uint64_t id = 0;
    std::uint64_t lost = 0;
};

/// PERF_RECORD_LOST_SAMPLES: samples the PMU/kernel dropped (e.g. PEBS buffer overrun).
struct LostSamplesRecord {
    std::uint64_t lost = 0;
};

/// PERF_RECORD_THROTTLE / UNTHROTTLE
struct ThrottleRecord {
    bool unthrottle = false;
    std::uint64_t time = 0, id = 0, streamId = 0;
};

/// PERF_RECORD_READ
struct ReadRecord {
    std::uint32_t pid = 0, tid = 0;
    ReadData values;
};

/// PERF_RECORD_SWITCH / SWITCH_CPU_WIDE
struct SwitchRecord {
    bool out = false;
    bool cpuWide = false;
    std::uint32_t nextPrevPid = 0, nextPrevTid = 0;
};

enum class RecordKind : std::uint8_t {
    Sample,
    Mmap, ///< MMAP or MMAP2: see mmap.isMmap2
    Comm,
    Fork,
    Exit,
    Lost,
    LostSamples,
    Throttle, ///< THROTTLE or UNTHROTTLE: see throttle.unthrottle
    Read,
    Switch,
    Other, ///< a record type this decoder does not interpret (header and sampleId still valid when possible)
};

/// One decoded record. Reuse one instance across decodes: only the member named by `kind` is meaningful.
struct DecodedRecord {
    RecordHeader header;
    RecordKind kind = RecordKind::Other;
    const EventAttr* attr = nullptr; ///< the attr the record was attributed to (null when none matched)
    Sample sample;
    MmapRecord mmap;
    CommRecord comm;
    TaskRecord task;
    LostRecord lost;
    LostSamplesRecord lostSamples;
    ThrottleRecord throttle;
    ReadRecord read;
    SwitchRecord sw;
    SampleIdTrailer sampleId; ///< non-sample records with sample_id_all
};

/// "SAMPLE", "MMAP2", "HEADER_ATTR", ... or "type 123".
std::string recordTypeName(std::uint32_t type);

} // namespace rdt::pmu
