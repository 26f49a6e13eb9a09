// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Fs.h"
#include "core/Result.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>

struct fuse;

namespace rdt::simfs {

/// Serves an Fs (the resctrl seam, docs/ARCHITECTURE.md "The seams") as a real file system through libfuse3, so
/// processes reach it with open/read/write/mkdir/rmdir and get the errno values the Fs returns: the simulated
/// kernel (SimResctrlFs) becomes a mount that any tool can use. It adapts the seam and decides nothing itself.
/// Kernfs semantics kept (Documentation/filesystems/resctrl.rst and kernfs): a read at offset 0 regenerates the
/// file's content and later offsets continue that snapshot; each write(2) is one command; sizes are 0; no page
/// cache and no attribute cache, so every read and lookup reaches the Fs. O_TRUNC is accepted and ignored.
/// Not served: permission bits (files are 0644, directories 0755; the Fs refuses what the kernel refuses),
/// rename, unlink, creating files, poll.
class FsFuseMount {
public:
    /// Mounts `fs` on the directory `dir` (must exist). Needs /dev/fuse and, for the mount, CAP_SYS_ADMIN.
    static Result<std::unique_ptr<FsFuseMount>> mount(std::shared_ptr<Fs> fs, const std::string& dir);
    ~FsFuseMount(); ///< stops serving and unmounts
    FsFuseMount(const FsFuseMount&) = delete;
    FsFuseMount& operator=(const FsFuseMount&) = delete;

    /// Serves on the calling thread until SIGINT, SIGTERM or SIGHUP (libfuse's handlers, removed on return).
    Status serveUntilSignal();
    /// Serves on a background thread until stop() or destruction.
    void start();
    /// Ends serving on the background thread: marks the session exited and unmounts (lazily), which ends the
    /// connection and so the loop; joins the thread.
    void stop();
    const std::string& mountpoint() const { return m_dir; }
    /// Requests answered so far (every FUSE operation counts one).
    std::uint64_t requests() const { return m_requests.load(); }

    // Called by the libfuse callbacks (FsFuseMount.cpp); not for other users.
    Fs& fs() { return *m_fs; }
    void countRequest() { ++m_requests; }

private:
    FsFuseMount() = default;

    std::shared_ptr<Fs> m_fs;
    std::string m_dir;
    struct fuse* m_fuse = nullptr;
    bool m_mounted = false;
    std::thread m_thread;
    std::atomic<std::uint64_t> m_requests { 0 };
};

/// Why FUSE cannot be used here, with the fix, or no error: /dev/fuse present and openable, running as root.
Status checkFuseAvailable();

} // namespace rdt::simfs
