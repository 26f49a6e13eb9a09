// SPDX-License-Identifier: GPL-3.0-or-later
#include "MappedRegion.h"

#include "UniqueFd.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

namespace rdt {

MappedRegion& MappedRegion::operator=(MappedRegion&& o) noexcept
{
    if (this != &o) {
        reset();
        m_addr = std::exchange(o.m_addr, nullptr);
        m_size = std::exchange(o.m_size, 0);
    }
    return *this;
}

void MappedRegion::reset() noexcept
{
    if (m_addr && m_size) ::munmap(m_addr, m_size);
    m_addr = nullptr;
    m_size = 0;
}

Result<MappedRegion> MappedRegion::mapFileReadOnly(const std::string& path)
{
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd) return errnoError(errno, "cannot open " + path);
    struct stat st { };
    if (::fstat(fd.get(), &st) != 0) return errnoError(errno, "cannot stat " + path);
    if (!S_ISREG(st.st_mode)) return makeError(path + " is not a regular file");
    const auto size = static_cast<std::size_t>(st.st_size);
    if (size == 0) return MappedRegion(reinterpret_cast<void*>(alignof(std::max_align_t)), 0);
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (p == MAP_FAILED) return errnoError(errno, "cannot map " + path);
    return MappedRegion(p, size);
}

} // namespace rdt
