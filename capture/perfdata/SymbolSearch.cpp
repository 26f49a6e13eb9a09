// SPDX-License-Identifier: GPL-3.0-or-later
#include "SymbolSearch.h"

#include <dirent.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace rdt::perfdata {

namespace {
bool isRegular(const std::string& p)
{
    struct stat st { };
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
std::string baseName(const std::string& p)
{
    const auto s = p.rfind('/');
    return s == std::string::npos ? p : p.substr(s + 1);
}
} // namespace

std::vector<std::uint8_t> SymbolSearch::readBuildId(const std::string& file)
{
    std::vector<std::uint8_t> id;
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return id;
    elf_version(EV_CURRENT);
    Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
    if (elf && elf_kind(elf) == ELF_K_ELF) {
        Elf_Scn* scn = nullptr;
        while (id.empty() && (scn = elf_nextscn(elf, scn)) != nullptr) {
            GElf_Shdr sh;
            if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE) continue;
            Elf_Data* data = elf_getdata(scn, nullptr);
            if (!data) continue;
            std::size_t off = 0, nameOff = 0, descOff = 0;
            GElf_Nhdr nh;
            while ((off = gelf_getnote(data, off, &nh, &nameOff, &descOff)) > 0) {
                const char* name = static_cast<const char*>(data->d_buf) + nameOff;
                if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
                    const auto* d = static_cast<const std::uint8_t*>(data->d_buf) + descOff;
                    id.assign(d, d + nh.n_descsz);
                    break;
                }
            }
        }
    }
    if (elf) elf_end(elf);
    ::close(fd);
    return id;
}

std::uint16_t SymbolSearch::elfMachineOfArch(const std::string& arch)
{
    // HEADER_ARCH is uname -m of the recording machine (perf util/header.c write_arch).
    if (arch == "x86_64") return 62; // EM_X86_64
    if (arch == "i386" || arch == "i486" || arch == "i586" || arch == "i686") return 3; // EM_386
    if (arch == "aarch64" || arch == "arm64") return 183; // EM_AARCH64
    if (arch == "riscv64") return 243; // EM_RISCV
    if (arch == "ppc64le" || arch == "ppc64") return 21; // EM_PPC64
    if (arch == "s390x") return 22; // EM_S390
    return 0;
}

std::uint16_t SymbolSearch::readElfMachine(const std::string& file)
{
    // e_ident[0..3] = "\x7fELF", e_ident[EI_DATA = 5] = 1 little / 2 big endian, e_machine at offset 18 (elf.h).
    unsigned char h[20] = {};
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    const ssize_t got = ::pread(fd, h, sizeof h, 0);
    ::close(fd);
    if (got != static_cast<ssize_t>(sizeof h)
        || std::memcmp(h,
               "\x7f"
               "ELF",
               4)
            != 0)
        return 0;
    return h[5] == 2 ? static_cast<std::uint16_t>(h[18] << 8 | h[19]) : static_cast<std::uint16_t>(h[19] << 8 | h[18]);
}

std::string SymbolSearch::rejection(const std::string& recordedPath) const
{
    auto it = m_rejections.find(recordedPath);
    return it == m_rejections.end() ? std::string {} : it->second;
}

bool SymbolSearch::acceptable(const std::string& file, const BuildId* recorded, const std::string& recordedPath)
{
    if (!isRegular(file)) return false;
    if (m_machine != 0) {
        const std::uint16_t machine = readElfMachine(file);
        if (machine != 0 && machine != m_machine) {
            m_rejections[recordedPath] = file + " is built for ELF machine " + std::to_string(machine)
                + ", the recording is " + m_arch + " (machine " + std::to_string(m_machine) + ")";
            return false;
        }
    }
    if (!recorded) {
        m_pathOnly.insert(recordedPath);
        return true;
    }
    const auto id = readBuildId(file);
    if (id.empty()) {
        m_pathOnly.insert(recordedPath);
        return true;
    }
    if (recorded->matches(id)) {
        m_pathOnly.erase(recordedPath);
        return true;
    }
    m_rejections[recordedPath] = file + " has another build-id than the recorded one";
    return false;
}

std::optional<std::string> SymbolSearch::locate(const std::string& recordedPath, const BuildId* recorded)
{
    if (auto it = m_cache.find(recordedPath); it != m_cache.end()) return it->second;
    std::optional<std::string> found;
    for (const auto& dir : m_dirs) {
        for (const auto& candidate : { dir + "/" + recordedPath, dir + "/" + baseName(recordedPath) }) {
            if (acceptable(candidate, recorded, recordedPath)) {
                found = candidate;
                break;
            }
        }
        if (found) break;
    }
    if (!found && recorded) {
        if (!m_scanned) { // one pass over the symfs dirs, reading each regular file's build-id once
            m_scanned = true;
            for (const auto& dir : m_dirs) {
                DIR* d = opendir(dir.c_str());
                if (!d) continue;
                while (dirent* e = readdir(d)) {
                    const std::string p = dir + "/" + e->d_name;
                    if (e->d_name[0] != '.' && isRegular(p)) m_dirIds[p] = readBuildId(p);
                }
                closedir(d);
            }
        }
        for (const auto& [file, id] : m_dirIds)
            if (!id.empty() && recorded->matches(id)) {
                found = file;
                break;
            }
    }
    if (!found && !recordedPath.empty() && recordedPath[0] == '/' && acceptable(recordedPath, recorded, recordedPath))
        found = recordedPath;
    if (found) { // absolute: the symbolizer only opens absolute paths
        m_rejections.erase(recordedPath);
        if (char* real = realpath(found->c_str(), nullptr)) {
            found = std::string(real);
            free(real);
        }
    }
    m_cache[recordedPath] = found;
    return found;
}

SymbolSearch::LocalMapping SymbolSearch::localMapping(const pmu::MmapRecord& m, const HeaderInfo& header)
{
    LocalMapping out { m, false };
    if (isPseudoPath(m.filename) || !m.executable()) return out;
    if (auto local = locateMapping(m, header)) {
        out.mapping.filename = *local;
        out.binaryPresent = true;
    }
    return out;
}

std::optional<std::string> SymbolSearch::locateMapping(const pmu::MmapRecord& m, const HeaderInfo& header)
{
    if (m_arch != header.arch) { // pipe mode: HEADER_ARCH may arrive after the first lookups
        m_arch = header.arch;
        m_machine = elfMachineOfArch(header.arch);
    }
    if (isPseudoPath(m.filename) || !m.executable()) return std::nullopt;
    if (const BuildIdEntry* recorded = header.buildIdFor(m.filename)) return locate(m.filename, &recorded->id);
    if (!m.hasBuildId) return locate(m.filename, nullptr);
    BuildId fromMmap;
    std::copy(m.buildId, m.buildId + std::min<std::size_t>(m.buildIdSize, sizeof m.buildId), fromMmap.data);
    fromMmap.size = m.buildIdSize;
    return locate(m.filename, &fromMmap);
}

} // namespace rdt::perfdata
