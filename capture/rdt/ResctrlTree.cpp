// SPDX-License-Identifier: GPL-3.0-or-later
#include "ResctrlTree.h"

#include "GroupNames.h"
#include "core/Text.h"

#include <cerrno>

namespace rdt {

ResctrlTree::ResctrlTree(std::shared_ptr<Fs> fs)
    : m_fs(std::move(fs))
{ }

std::string ResctrlTree::join(const std::string& group, const std::string& file) const
{
    return group.empty() ? file : group + "/" + file;
}

Status ResctrlTree::requireGroup(const std::string& path, bool mustBeControl)
{
    if (auto valid = rdt::checkGroupPath(path); !valid) return valid;
    if (!path.empty() && !m_fs->isDirectory(path))
        return errnoError(ENOENT, "no group '" + path + "' in " + m_fs->describe(), "list groups with `groups list`");
    if (mustBeControl && path.find("mon_groups/") != std::string::npos)
        return errnoError(
            EINVAL, "'" + path + "' is a monitor group: it has no schemata", "change its parent control group instead");
    return {};
}

std::string ResctrlTree::lastCmdStatus()
{
    auto r = m_fs->read("info/last_cmd_status");
    return r ? std::string(trim(*r)) : std::string {};
}

std::string ResctrlTree::treeCopyAdvice(const std::string& file) const
{
    return "the group exists but has no " + file + ": a live resctrl mount creates it with the group, so "
        + m_fs->describe() + " is probably a copy of a tree (plain files), not the kernel";
}

Status ResctrlTree::writeCommand(const std::string& path, std::string data)
{
    if (data.empty() || data.back() != '\n')
        data += '\n'; // the kernel rejects input without a trailing newline, silently (KCTRL parse_line)
    auto w = m_fs->write(path, data);
    if (w) return {};
    Error e = w.error();
    if (e.code == ENOENT) {
        const auto slash = path.rfind('/');
        const auto dir = slash == std::string::npos ? std::string {} : path.substr(0, slash);
        if (dir.empty() || m_fs->isDirectory(dir)) {
            e.advice = treeCopyAdvice(path.substr(slash + 1));
            return e;
        }
    }
    const auto status = lastCmdStatus();
    if (!status.empty() && status != "ok") {
        e.message += "; kernel says: " + status;
        if (e.code == EINVAL) e.advice = "the kernel rejected '" + std::string(trim(data)) + "': " + status;
    } else if (e.code == EINVAL) {
        e.advice = "the kernel gave no reason (info/last_cmd_status is '" + status
            + "'): usually an unknown domain id or a malformed line";
    }
    return e;
}

Status ResctrlTree::beginChange()
{
    if (m_changeDepth == 0) {
        if (auto l = m_fs->lock(true); !l) return l;
    }
    ++m_changeDepth;
    return {};
}

void ResctrlTree::endChange()
{
    if (--m_changeDepth == 0) m_fs->unlock();
}

} // namespace rdt
