// SPDX-License-Identifier: GPL-3.0-or-later
#include "ResctrlSchemataEditor.h"

#include "RootLock.h"

#include <cerrno>

namespace rdt {

ResctrlSchemataEditor::ResctrlSchemataEditor(ResctrlTree& tree)
    : m_tree(tree)
{ }

Result<Schemata> ResctrlSchemataEditor::read(const std::string& path)
{
    if (auto c = m_tree.requireGroup(path, true); !c) return c.error();
    auto r = m_tree.fs().read(m_tree.join(path, "schemata"));
    if (!r) return r.error();
    return Schemata::parse(*r);
}

Status ResctrlSchemataEditor::apply(const std::string& path, const Schemata& change)
{
    Fs& fs = m_tree.fs();
    if (auto c = m_tree.requireGroup(path, true); !c) return c;
    RootLock rl(fs, true, m_tree.changeDepth());
    if (!rl.status()) return rl.status();
    const auto file = m_tree.join(path, "schemata");
    // The whole schemata, merged with the change, goes in one newline-terminated multi-line write: the kernel
    // accepts that form (KDOC `echo -e "L3:0=f8000;1=fffff\nMB:0=20;1=100" > p0/schemata`), unchanged values
    // are rewritten as they were, and a plain file (a copied fixture tree) keeps its other lines.
    auto before = fs.read(file);
    if (!before) return before.error();
    auto current = Schemata::parse(*before);
    if (!current) return current.error();
    Schemata merged = *current;
    for (const auto& line : change.lines())
        for (const auto& [d, v] : line.values)
            merged.set(line.resource, d, v);
    if (auto w = m_tree.writeCommand(file, merged.format()); !w) return w;
    auto back = fs.read(file);
    if (!back) return back.error();
    auto readBack = Schemata::parse(*back);
    if (!readBack) return readBack.error();
    for (const auto& line : change.lines()) {
        for (const auto& [d, v] : line.values) {
            const auto got = readBack->value(line.resource, d);
            if (!got || normaliseValue(line.resource, *got) != normaliseValue(line.resource, v)) {
                return errnoError(EIO,
                    "wrote " + line.resource + ":" + std::to_string(d) + "=" + v + " to " + file + " but read back "
                        + (got ? *got : std::string("nothing")),
                    "the kernel adjusted or ignored the value; last_cmd_status: " + m_tree.lastCmdStatus());
            }
        }
    }
    return {};
}

} // namespace rdt
