// SPDX-License-Identifier: GPL-3.0-or-later
// libfuse3's high-level API over the Fs seam. Each callback turns a path into the seam's relative form and an Error
// into the negative errno FUSE expects; nothing here knows resctrl.
#define FUSE_USE_VERSION 31
#include "FsFuseMount.h"

#include <fuse.h>
#include <fuse_lowlevel.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rdt::simfs {
namespace {

FsFuseMount& self()
{
    return *static_cast<FsFuseMount*>(fuse_get_context()->private_data);
}

/// "/p0/schemata" -> "p0/schemata" (the seam's paths are relative to its root).
std::string relative(const char* path)
{
    while (*path == '/')
        ++path;
    return path;
}

int negative(const Error& e)
{
    return -(e.code > 0 ? e.code : EIO);
}

/// One open file: the snapshot a read at offset 0 took (kernfs seq_file: later offsets continue it).
struct OpenFile {
    std::string content;
    bool loaded = false;
};

void* onInit(fuse_conn_info*, fuse_config* cfg)
{
    // No caches: every lookup, getattr and read reaches the Fs, as every access reaches kernfs.
    cfg->entry_timeout = 0;
    cfg->attr_timeout = 0;
    cfg->negative_timeout = 0;
    cfg->direct_io = 1;
    cfg->kernel_cache = 0;
    cfg->hard_remove = 1;
    return fuse_get_context()->private_data;
}

int onGetattr(const char* path, struct stat* st, fuse_file_info*)
{
    FsFuseMount& m = self();
    m.countRequest();
    const std::string p = relative(path);
    std::memset(st, 0, sizeof *st);
    st->st_uid = 0;
    st->st_gid = 0;
    if (m.fs().isDirectory(p)) {
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
        return 0;
    }
    if (!m.fs().exists(p)) return -ENOENT;
    st->st_mode = S_IFREG | 0644;
    st->st_nlink = 1;
    st->st_size = 0;
    return 0;
}

int onReaddir(const char* path, void* buf, fuse_fill_dir_t fill, off_t, fuse_file_info*, fuse_readdir_flags)
{
    FsFuseMount& m = self();
    m.countRequest();
    auto names = m.fs().list(relative(path));
    if (!names) return negative(names.error());
    fill(buf, ".", nullptr, 0, fuse_fill_dir_flags {});
    fill(buf, "..", nullptr, 0, fuse_fill_dir_flags {});
    for (const auto& n : *names)
        fill(buf, n.c_str(), nullptr, 0, fuse_fill_dir_flags {});
    return 0;
}

int onOpen(const char* path, fuse_file_info* fi)
{
    FsFuseMount& m = self();
    m.countRequest();
    const std::string p = relative(path);
    if (m.fs().isDirectory(p)) return -EISDIR;
    if (!m.fs().exists(p)) return -ENOENT;
    fi->fh = reinterpret_cast<std::uint64_t>(new OpenFile);
    fi->direct_io = 1;
    fi->keep_cache = 0;
    return 0;
}

int onRelease(const char*, fuse_file_info* fi)
{
    delete reinterpret_cast<OpenFile*>(fi->fh);
    return 0;
}

int onRead(const char* path, char* buf, std::size_t size, off_t offset, fuse_file_info* fi)
{
    FsFuseMount& m = self();
    m.countRequest();
    auto* f = reinterpret_cast<OpenFile*>(fi->fh);
    if (offset == 0 || !f->loaded) {
        auto r = m.fs().read(relative(path));
        if (!r) return negative(r.error());
        f->content = std::move(*r);
        f->loaded = true;
    }
    if (offset < 0 || std::size_t(offset) >= f->content.size()) return 0;
    const std::size_t n = std::min(size, f->content.size() - std::size_t(offset));
    std::memcpy(buf, f->content.data() + offset, n);
    return static_cast<int>(n);
}

int onWrite(const char* path, const char* buf, std::size_t size, off_t, fuse_file_info*)
{
    FsFuseMount& m = self();
    m.countRequest();
    auto s = m.fs().write(relative(path), std::string(buf, size));
    if (!s) return negative(s.error());
    return static_cast<int>(size);
}

int onTruncate(const char* path, off_t, fuse_file_info*)
{
    FsFuseMount& m = self();
    m.countRequest();
    // `echo X > file` opens with O_TRUNC; kernfs ignores the truncation, and so does this.
    return m.fs().exists(relative(path)) ? 0 : -ENOENT;
}

int onMkdir(const char* path, mode_t)
{
    FsFuseMount& m = self();
    m.countRequest();
    auto s = m.fs().mkdir(relative(path));
    return s ? 0 : negative(s.error());
}

int onRmdir(const char* path)
{
    FsFuseMount& m = self();
    m.countRequest();
    auto s = m.fs().rmdir(relative(path));
    return s ? 0 : negative(s.error());
}

fuse_operations operations()
{
    fuse_operations ops {};
    ops.init = onInit;
    ops.getattr = onGetattr;
    ops.readdir = onReaddir;
    ops.open = onOpen;
    ops.release = onRelease;
    ops.read = onRead;
    ops.write = onWrite;
    ops.truncate = onTruncate;
    ops.mkdir = onMkdir;
    ops.rmdir = onRmdir;
    return ops;
}

} // namespace

Status checkFuseAvailable()
{
    if (::access("/dev/fuse", F_OK) != 0)
        return errnoError(ENODEV, "cannot serve the simulated resctrl: /dev/fuse does not exist",
            "load the fuse module (modprobe fuse) or, in a container, pass the device (--device /dev/fuse)");
    if (::geteuid() != 0)
        return errnoError(EPERM, "cannot mount the simulated resctrl: mounting needs root (CAP_SYS_ADMIN)",
            "run it with sudo, or as root in the VM or container");
    const int fd = ::open("/dev/fuse", O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return errnoError(errno, "cannot open /dev/fuse", "a container needs --device /dev/fuse and CAP_SYS_ADMIN");
    ::close(fd);
    return {};
}

Result<std::unique_ptr<FsFuseMount>> FsFuseMount::mount(std::shared_ptr<Fs> fs, const std::string& dir)
{
    if (auto s = checkFuseAvailable(); !s) return s.error();
    std::unique_ptr<FsFuseMount> m(new FsFuseMount());
    m->m_fs = std::move(fs);
    m->m_dir = dir;
    // fsname/subtype: /proc/mounts shows "resctrl <dir> fuse.resctrl"; allow_other: every user of the machine
    // reaches it, as the kernel's resctrl.
    const char* argv[] = { "rdtscope-simfs", "-o", "fsname=resctrl,subtype=resctrl,allow_other" };
    fuse_args args = FUSE_ARGS_INIT(3, const_cast<char**>(argv));
    static const fuse_operations ops = operations();
    m->m_fuse = fuse_new(&args, &ops, sizeof ops, m.get());
    if (m->m_fuse == nullptr) return makeError("libfuse could not create a session", "see the message above");
    if (fuse_mount(m->m_fuse, dir.c_str()) != 0)
        return errnoError(EIO, "cannot mount FUSE on " + dir, "the directory must exist and be empty");
    m->m_mounted = true;
    return m;
}

FsFuseMount::~FsFuseMount()
{
    stop();
    if (m_fuse != nullptr) {
        if (m_mounted) fuse_unmount(m_fuse);
        fuse_destroy(m_fuse);
    }
}

Status FsFuseMount::serveUntilSignal()
{
    fuse_session* se = fuse_get_session(m_fuse);
    if (fuse_set_signal_handlers(se) != 0) return makeError("cannot install the SIGINT/SIGTERM handlers");
    const int rc = fuse_loop(m_fuse);
    fuse_remove_signal_handlers(se);
    if (rc < 0) return errnoError(-rc, "serving " + m_dir + " failed");
    return {};
}

void FsFuseMount::start()
{
    if (m_thread.joinable()) return;
    m_thread = std::thread([this] { (void)fuse_loop(m_fuse); });
}

void FsFuseMount::stop()
{
    if (!m_thread.joinable()) return;
    fuse_session_exit(fuse_get_session(m_fuse));
    // The loop sleeps in read(/dev/fuse). Waking it with a request through the mount would race with its exit (a
    // request nobody answers blocks its caller for good), so the mount goes instead: once detached and unused,
    // the kernel ends the connection and the loop's read fails with ENODEV, its normal end.
    if (m_mounted && ::umount2(m_dir.c_str(), MNT_DETACH) == 0) m_mounted = false;
    m_thread.join();
}

} // namespace rdt::simfs
