// SPDX-License-Identifier: GPL-3.0-or-later
#include "TruncationVfs.h"

#include <sqlite3.h>

#include <cstring>
#include <mutex>

namespace rdt::session {

namespace {

constexpr const char* kName = "rdtscope-truncation";

/// Our file: the announced size, then the real VFS's file object (szOsFile bytes) right after it.
struct WrappedFile {
    sqlite3_file base;
    sqlite3_int64 announcedBytes;
};

sqlite3_vfs* g_real = nullptr;
sqlite3_vfs g_vfs {};
sqlite3_io_methods g_methods {};

sqlite3_file* real(sqlite3_file* f)
{
    return reinterpret_cast<sqlite3_file*>(reinterpret_cast<WrappedFile*>(f) + 1);
}

int xClose(sqlite3_file* f)
{
    sqlite3_file* r = real(f);
    return r->pMethods ? r->pMethods->xClose(r) : SQLITE_OK;
}
int xRead(sqlite3_file* f, void* buf, int n, sqlite3_int64 off)
{
    // Past the real end the default VFS fills with zeros and says SQLITE_IOERR_SHORT_READ, which the pager
    // accepts for database pages.
    return real(f)->pMethods->xRead(real(f), buf, n, off);
}
int xWrite(sqlite3_file* f, const void* buf, int n, sqlite3_int64 off)
{
    return real(f)->pMethods->xWrite(real(f), buf, n, off);
}
int xTruncate(sqlite3_file* f, sqlite3_int64 size)
{
    return real(f)->pMethods->xTruncate(real(f), size);
}
int xSync(sqlite3_file* f, int flags)
{
    return real(f)->pMethods->xSync(real(f), flags);
}
int xFileSize(sqlite3_file* f, sqlite3_int64* size)
{
    const int rc = real(f)->pMethods->xFileSize(real(f), size);
    const auto announced = reinterpret_cast<WrappedFile*>(f)->announcedBytes;
    if (rc == SQLITE_OK && *size < announced) *size = announced;
    return rc;
}
int xLock(sqlite3_file* f, int lock)
{
    return real(f)->pMethods->xLock(real(f), lock);
}
int xUnlock(sqlite3_file* f, int lock)
{
    return real(f)->pMethods->xUnlock(real(f), lock);
}
int xCheckReservedLock(sqlite3_file* f, int* out)
{
    return real(f)->pMethods->xCheckReservedLock(real(f), out);
}
int xFileControl(sqlite3_file* f, int op, void* arg)
{
    return real(f)->pMethods->xFileControl(real(f), op, arg);
}
int xSectorSize(sqlite3_file* f)
{
    return real(f)->pMethods->xSectorSize(real(f));
}
int xDeviceCharacteristics(sqlite3_file* f)
{
    return real(f)->pMethods->xDeviceCharacteristics(real(f));
}
int xShmMap(sqlite3_file* f, int page, int size, int extend, void volatile** out)
{
    return real(f)->pMethods->xShmMap(real(f), page, size, extend, out);
}
int xShmLock(sqlite3_file* f, int offset, int n, int flags)
{
    return real(f)->pMethods->xShmLock(real(f), offset, n, flags);
}
void xShmBarrier(sqlite3_file* f)
{
    real(f)->pMethods->xShmBarrier(real(f));
}
int xShmUnmap(sqlite3_file* f, int deleteFlag)
{
    return real(f)->pMethods->xShmUnmap(real(f), deleteFlag);
}
int xFetch(sqlite3_file*, sqlite3_int64, int, void** out)
{
    *out = nullptr; // no memory mapping: a file cut while mapped would raise SIGBUS
    return SQLITE_OK;
}
int xUnfetch(sqlite3_file*, sqlite3_int64, void*)
{
    return SQLITE_OK;
}

/// The size the header of a main database file announces (page size x page count), or 0.
sqlite3_int64 announcedSize(sqlite3_file* r)
{
    unsigned char h[100];
    if (r->pMethods->xRead(r, h, sizeof h, 0) != SQLITE_OK) return 0;
    if (std::memcmp(h, "SQLite format 3", 16) != 0) return 0;
    sqlite3_int64 page = (h[16] << 8) | h[17];
    if (page == 1) page = 65536;
    const sqlite3_int64 pages = (sqlite3_int64(h[28]) << 24) | (h[29] << 16) | (h[30] << 8) | h[31];
    // The in-header size counts only when the change counter matches "version-valid-for" (file format docs).
    if (std::memcmp(h + 24, h + 92, 4) != 0) return 0;
    return page * pages;
}

int xOpen(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* f, int flags, int* outFlags)
{
    auto* w = reinterpret_cast<WrappedFile*>(f);
    sqlite3_file* r = real(f);
    std::memset(r, 0, static_cast<std::size_t>(g_real->szOsFile));
    w->base.pMethods = nullptr;
    w->announcedBytes = 0;
    const int rc = g_real->xOpen(g_real, name, r, flags, outFlags);
    if (rc != SQLITE_OK) return rc; // SQLite calls xClose only when pMethods is set; ours is still null
    if ((flags & SQLITE_OPEN_MAIN_DB) != 0) w->announcedBytes = announcedSize(r);
    w->base.pMethods = &g_methods;
    return SQLITE_OK;
}

void registerVfs()
{
    g_real = sqlite3_vfs_find(nullptr);
    if (!g_real) return;
    g_methods = sqlite3_io_methods { 3, xClose, xRead, xWrite, xTruncate, xSync, xFileSize, xLock, xUnlock,
        xCheckReservedLock, xFileControl, xSectorSize, xDeviceCharacteristics, xShmMap, xShmLock, xShmBarrier,
        xShmUnmap, xFetch, xUnfetch };
    g_vfs = *g_real; // everything but opening files is the default VFS's own
    g_vfs.szOsFile = static_cast<int>(sizeof(WrappedFile)) + g_real->szOsFile;
    g_vfs.zName = kName;
    g_vfs.pNext = nullptr;
    g_vfs.xOpen = xOpen;
    if (sqlite3_vfs_register(&g_vfs, 0) != SQLITE_OK) g_real = nullptr;
}

} // namespace

const char* truncationVfsName()
{
    static std::once_flag once;
    std::call_once(once, registerVfs);
    return g_real ? kName : nullptr;
}

} // namespace rdt::session
