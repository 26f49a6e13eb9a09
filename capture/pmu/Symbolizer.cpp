// SPDX-License-Identifier: GPL-3.0-or-later
#include "Symbolizer.h"
#include "core/Text.h"

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include <algorithm>
#include <cstdio>
#include <cxxabi.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace rdt::pmu {

namespace {

constexpr std::uint64_t kKernelStart = 0xffff800000000000ull;

std::string demangle(const char* name)
{
    if (!name) return {};
    if (name[0] == '_' && name[1] == 'Z') {
        int status = 0;
        char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
        if (status == 0 && d) {
            std::string out(d);
            std::free(d);
            return out;
        }
        std::free(d);
    }
    return name;
}

bool fileExists(const std::string& p)
{
    struct stat st { };
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

const Dwfl_Callbacks kOfflineCallbacks
    = { dwfl_build_id_find_elf, dwfl_standard_find_debuginfo, dwfl_offline_section_address, nullptr };

} // namespace

std::string baseName(const std::string& path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// One ELF file opened through libdwfl as an offline module: symbols from .symtab/.dynsym (or the separate
/// debug file found by build-id), lines from DWARF.
class ElfModule {
public:
    /// `hasCode`: the file is the binary itself (a separate debug file has symbols but no code bytes).
    static std::unique_ptr<ElfModule> open(const std::string& path, bool hasCode)
    {
        std::unique_ptr<ElfModule> m(new ElfModule);
        m->m_dwfl = dwfl_begin(&kOfflineCallbacks);
        if (!m->m_dwfl) return nullptr;
        m->m_mod = dwfl_report_offline(m->m_dwfl, baseName(path).c_str(), path.c_str(), -1);
        dwfl_report_end(m->m_dwfl, nullptr, nullptr);
        if (!m->m_mod) return nullptr;
        Elf* elf = dwfl_module_getelf(m->m_mod, &m->m_bias);
        if (!elf) return nullptr;
        GElf_Ehdr eh;
        if (gelf_getehdr(elf, &eh)) m->m_machine = eh.e_machine;
        if (hasCode) m->m_raw = reinterpret_cast<const std::uint8_t*>(elf_rawfile(elf, &m->m_rawSize));
        std::size_t n = 0;
        if (elf_getphdrnum(elf, &n) != 0) return nullptr;
        for (std::size_t i = 0; i < n; ++i) {
            GElf_Phdr ph;
            if (gelf_getphdr(elf, static_cast<int>(i), &ph) && ph.p_type == PT_LOAD)
                m->m_loads.push_back({ ph.p_offset, ph.p_vaddr, ph.p_filesz });
        }
        return m;
    }
    /// Bytes of the file at `fileOffset` inside a loaded segment; 0 when there are none.
    std::size_t code(std::uint64_t fileOffset, std::uint8_t* out, std::size_t n) const
    {
        if (!m_raw) return 0;
        for (const auto& l : m_loads)
            if (fileOffset >= l.offset && fileOffset < l.offset + l.filesz && fileOffset < m_rawSize) {
                const std::size_t take = static_cast<std::size_t>(
                    std::min<std::uint64_t>({ n, l.offset + l.filesz - fileOffset, m_rawSize - fileOffset }));
                std::copy_n(m_raw + fileOffset, take, out);
                return take;
            }
        return 0;
    }
    std::uint16_t machine() const { return m_machine; }
    ~ElfModule()
    {
        if (m_dwfl) dwfl_end(m_dwfl);
    }
    /// `fileOffset` is where the address falls in the file (addr - map start + pgoff).
    bool lookup(std::uint64_t fileOffset, SymbolInfo& out) const
    {
        std::uint64_t vaddr = 0;
        bool found = false;
        for (const auto& l : m_loads)
            if (fileOffset >= l.offset && fileOffset < l.offset + l.filesz) {
                vaddr = fileOffset - l.offset + l.vaddr;
                found = true;
                break;
            }
        if (!found) return false;
        const Dwarf_Addr a = vaddr + m_bias;
        GElf_Off off = 0;
        GElf_Sym sym;
        const char* name = dwfl_module_addrinfo(m_mod, a, &off, &sym, nullptr, nullptr, nullptr);
        if (!name) return false;
        out.function = demangle(name);
        out.offset = off;
        out.resolved = true;
        if (Dwfl_Line* line = dwfl_module_getsrc(m_mod, a)) {
            int lineNo = 0;
            if (const char* src = dwfl_lineinfo(line, nullptr, &lineNo, nullptr, nullptr, nullptr)) {
                out.sourceFile = src;
                out.line = lineNo;
            }
        }
        return true;
    }

private:
    ElfModule() = default;
    struct Load {
        std::uint64_t offset, vaddr, filesz;
    };
    Dwfl* m_dwfl = nullptr;
    Dwfl_Module* m_mod = nullptr;
    GElf_Addr m_bias = 0;
    std::vector<Load> m_loads;
    const std::uint8_t* m_raw = nullptr; ///< the whole file as libelf read it (owned by m_dwfl)
    std::size_t m_rawSize = 0;
    std::uint16_t m_machine = 0;
};

Symbolizer::Symbolizer()
{
    elf_version(EV_CURRENT);
}
Symbolizer::~Symbolizer() = default;

void Symbolizer::onRecord(const DecodedRecord& r)
{
    switch (r.kind) {
    case RecordKind::Mmap:
        addMapping(r.mmap.pid, r.mmap);
        break;
    case RecordKind::Comm:
        setComm(r.comm.pid, r.comm.comm);
        if (r.comm.exec) { // exec replaced the address space
            m_procs[r.comm.pid].maps.clear();
            m_cache.clear();
        }
        break;
    case RecordKind::Fork:
        if (r.task.pid != r.task.ppid && m_procs.count(r.task.ppid)) // a new process inherits its parent's maps
            m_procs[r.task.pid] = m_procs[r.task.ppid];
        break;
    default:
        break;
    }
}

void Symbolizer::addMapping(std::uint32_t pid, const MmapRecord& m, bool binaryPresent)
{
    if (!m.executable() || m.len == 0) return;
    Mapping map;
    map.start = m.addr;
    map.end = m.addr + m.len;
    map.pgoff = m.pgoff;
    map.path = m.filename;
    map.binaryPresent = binaryPresent;
    if (m.hasBuildId) map.buildId.assign(m.buildId, m.buildId + std::min<std::size_t>(m.buildIdSize, 20));
    auto& maps = m_procs[pid].maps;
    // A new mapping replaces whatever it overlaps (mmap over an old range).
    for (auto it = maps.lower_bound(map.start); it != maps.begin();) {
        auto prev = std::prev(it);
        if (prev->second.end <= map.start) break;
        it = maps.erase(prev);
    }
    for (auto it = maps.lower_bound(map.start); it != maps.end() && it->first < map.end;)
        it = maps.erase(it);
    maps[map.start] = std::move(map);
    m_cache.clear();
}

void Symbolizer::setComm(std::uint32_t pid, std::string comm)
{
    m_procs[pid].comm = std::move(comm);
}

std::string Symbolizer::comm(std::uint32_t pid) const
{
    auto it = m_procs.find(pid);
    return it == m_procs.end() ? std::string {} : it->second.comm;
}

Status Symbolizer::loadProcMaps(std::uint32_t pid)
{
    const std::string base = "/proc/" + std::to_string(pid);
    std::ifstream in(base + "/maps");
    if (!in)
        return errnoError(errno, "cannot read " + base + "/maps", "the process exited, or ptrace rights are missing");
    for (std::string line; std::getline(in, line);) {
        std::istringstream l(line);
        std::string range, perms, offset, dev, inode, path;
        l >> range >> perms >> offset >> dev >> inode;
        std::getline(l >> std::ws, path);
        if (perms.size() < 3 || perms[2] != 'x') continue;
        MmapRecord m;
        m.isMmap2 = true;
        m.prot = 4;
        m.pid = pid;
        const auto dash = range.find('-');
        m.addr = std::stoull(range.substr(0, dash), nullptr, 16);
        m.len = std::stoull(range.substr(dash + 1), nullptr, 16) - m.addr;
        m.pgoff = std::stoull(offset, nullptr, 16);
        m.filename = path;
        addMapping(pid, m);
    }
    std::ifstream commIn(base + "/comm");
    std::string c;
    if (std::getline(commIn, c)) setComm(pid, c);
    return {};
}

Status Symbolizer::loadKallsyms(const std::string& path)
{
    std::ifstream in(path);
    if (!in) return errnoError(errno, "cannot read " + path);
    std::vector<SymbolRange> syms;
    bool anyAddress = false;
    for (std::string line; std::getline(in, line);) {
        std::istringstream l(line);
        std::string addr, type, name;
        l >> addr >> type >> name;
        if (name.empty() || (type != "T" && type != "t" && type != "W" && type != "w")) continue;
        const std::uint64_t a = std::stoull(addr, nullptr, 16);
        anyAddress = anyAddress || a != 0;
        syms.push_back({ a, 0, name });
    }
    if (!anyAddress)
        return makeError("/proc/kallsyms shows only zero addresses",
            "kernel symbols are hidden by kptr_restrict: run as root or `sudo sysctl kernel.kptr_restrict=0`");
    std::sort(syms.begin(), syms.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    for (std::size_t i = 0; i + 1 < syms.size(); ++i)
        syms[i].size = syms[i + 1].start - syms[i].start;
    if (!syms.empty()) syms.back().size = 4096;
    m_kallsyms = std::move(syms);
    m_cache.clear();
    return {};
}

void Symbolizer::addSymbolTable(std::uint32_t pid, std::string moduleName, std::vector<SymbolRange> symbols)
{
    std::sort(symbols.begin(), symbols.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    m_tables[pid] = { std::move(moduleName), std::move(symbols) };
    m_cache.clear();
}

SymbolInfo Symbolizer::fromTable(
    const std::vector<SymbolRange>& table, const std::string& moduleName, std::uint64_t addr)
{
    SymbolInfo out;
    auto it = std::upper_bound(
        table.begin(), table.end(), addr, [](std::uint64_t a, const SymbolRange& s) { return a < s.start; });
    if (it == table.begin()) return out;
    --it;
    if (addr >= it->start + std::max<std::uint64_t>(it->size, 1)) return out;
    out.function = it->name;
    out.module = moduleName;
    out.offset = addr - it->start;
    out.resolved = true;
    return out;
}

ElfModule* Symbolizer::module(const std::string& path, const std::vector<std::uint8_t>& buildId)
{
    auto it = m_modules.find(path);
    if (it != m_modules.end()) return it->second.get();
    std::string file = path;
    bool debugFile = false;
    if (!fileExists(file) && !buildId.empty()) {
        debugFile = true;
        // The file is gone or from another machine: the build-id debug file has the same symbols.
        std::string hex;
        char b[3];
        for (auto byte : buildId) {
            std::snprintf(b, sizeof b, "%02x", byte);
            hex += b;
        }
        file = "/usr/lib/debug/.build-id/" + hex.substr(0, 2) + "/" + hex.substr(2) + ".debug";
    }
    std::unique_ptr<ElfModule> m = fileExists(file) ? ElfModule::open(file, !debugFile) : nullptr;
    ElfModule* raw = m.get();
    m_modules.emplace(path, std::move(m));
    return raw;
}

SymbolInfo Symbolizer::lookup(std::uint32_t pid, std::uint64_t addr)
{
    SymbolInfo out;
    if (addr >= kKernelStart) {
        if (!m_kallsyms.empty()) out = fromTable(m_kallsyms, "[kernel.kallsyms]", addr);
        if (!out.resolved) {
            out.module = "[kernel.kallsyms]";
            out.function = "[kernel] " + formatHex(addr);
            out.offset = addr;
        }
        return out;
    }
    for (std::uint32_t p : { pid, 0u }) {
        if (auto t = m_tables.find(p); t != m_tables.end()) {
            out = fromTable(t->second.second, t->second.first, addr);
            if (out.resolved) return out;
        }
    }
    auto proc = m_procs.find(pid);
    if (proc != m_procs.end()) {
        auto& maps = proc->second.maps;
        auto it = maps.upper_bound(addr);
        if (it != maps.begin()) {
            --it;
            const Mapping& m = it->second;
            if (addr < m.end) {
                const std::uint64_t fileOffset = addr - m.start + m.pgoff;
                out.module = baseName(m.path);
                if (m.binaryPresent && !m.path.empty() && m.path[0] == '/')
                    if (ElfModule* elf = module(m.path, m.buildId); elf && elf->lookup(fileOffset, out)) return out;
                out.function = out.module + "+" + formatHex(fileOffset);
                out.offset = fileOffset;
                return out;
            }
        }
    }
    out.function = "[unknown] " + formatHex(addr);
    out.offset = addr;
    return out;
}

const Symbolizer::Mapping* Symbolizer::mappingAt(std::uint32_t pid, std::uint64_t addr) const
{
    auto proc = m_procs.find(pid);
    if (proc == m_procs.end()) return nullptr;
    auto it = proc->second.maps.upper_bound(addr);
    if (it == proc->second.maps.begin()) return nullptr;
    --it;
    return addr < it->second.end ? &it->second : nullptr;
}

std::size_t Symbolizer::codeAt(std::uint32_t pid, std::uint64_t addr, std::uint8_t (&out)[16], std::uint16_t& machine)
{
    const Mapping* m = addr >= kKernelStart ? nullptr : mappingAt(pid, addr);
    if (!m || !m->binaryPresent || m->path.empty() || m->path[0] != '/') return 0;
    ElfModule* elf = module(m->path, m->buildId);
    if (!elf) return 0;
    machine = elf->machine();
    return elf->code(addr - m->start + m->pgoff, out, sizeof out);
}

const SymbolInfo& Symbolizer::resolve(std::uint32_t pid, std::uint64_t addr)
{
    const Key k { pid, addr };
    auto it = m_cache.find(k);
    if (it != m_cache.end()) return it->second;
    return m_cache.emplace(k, lookup(pid, addr)).first->second;
}

} // namespace rdt::pmu
