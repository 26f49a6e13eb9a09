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

bool SymbolSearch::acceptable(const std::string& file, const BuildId* recorded)
{
    if (!isRegular(file)) return false;
    if (!recorded) return true;
    const auto id = readBuildId(file);
    return id.empty() || recorded->matches(id);
}

std::optional<std::string> SymbolSearch::locate(const std::string& recordedPath, const BuildId* recorded)
{
    if (auto it = m_cache.find(recordedPath); it != m_cache.end()) return it->second;
    std::optional<std::string> found;
    for (const auto& dir : m_dirs) {
        for (const auto& candidate : { dir + "/" + recordedPath, dir + "/" + baseName(recordedPath) }) {
            if (acceptable(candidate, recorded)) {
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
    if (!found && !recordedPath.empty() && recordedPath[0] == '/' && acceptable(recordedPath, recorded))
        found = recordedPath;
    if (found) { // absolute: the symbolizer only opens absolute paths
        if (char* real = realpath(found->c_str(), nullptr)) {
            found = std::string(real);
            free(real);
        }
    }
    m_cache[recordedPath] = found;
    return found;
}

std::optional<std::string> SymbolSearch::locateMapping(const pmu::MmapRecord& m, const HeaderInfo& header)
{
    if (isPseudoPath(m.filename) || !m.executable()) return std::nullopt;
    if (const BuildIdEntry* recorded = header.buildIdFor(m.filename)) return locate(m.filename, &recorded->id);
    if (!m.hasBuildId) return locate(m.filename, nullptr);
    BuildId fromMmap;
    std::copy(m.buildId, m.buildId + std::min<std::size_t>(m.buildIdSize, sizeof m.buildId), fromMmap.data);
    fromMmap.size = m.buildIdSize;
    return locate(m.filename, &fromMmap);
}

} // namespace rdt::perfdata
