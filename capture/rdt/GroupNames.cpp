// SPDX-License-Identifier: GPL-3.0-or-later
#include "GroupNames.h"

#include "core/FsPath.h"
#include "core/Text.h"

#include <cerrno>

namespace rdt {

namespace {

std::string printable(std::string_view s)
{
    std::string out;
    for (char c : s.substr(0, 80))
        out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
    return out;
}

Error invalid(std::string_view what, std::string_view text, const std::string& why)
{
    return errnoError(EINVAL, std::string(what) + " '" + printable(text) + "' refused: " + why,
        "group names are one plain word such as p0 or batch-jobs (no '/', blanks, '..' or newlines)");
}

} // namespace

std::vector<std::string> groupPathsFromList(std::string_view list)
{
    std::vector<std::string> out;
    while (!list.empty()) {
        const auto comma = list.find(',');
        const auto item = trim(list.substr(0, comma));
        if (!item.empty()) out.push_back(groupPathFromName(item));
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return out;
}

Status checkGroupName(std::string_view name)
{
    if (name.empty()) return invalid("group name", name, "it is empty");
    auto parts = splitBeneath(name);
    if (!parts) return invalid("group name", name, parts.error().message.substr(parts.error().message.rfind(": ") + 2));
    if (parts->size() != 1) return invalid("group name", name, "a name cannot contain '/'");
    for (char c : name)
        if (c == ' ') return invalid("group name", name, "a name cannot contain blanks");
    if (name == "info" || name == "mon_groups" || name == "mon_data")
        return invalid("group name", name, "the resctrl root uses this name itself");
    if (name == kDefaultGroupName) return invalid("group name", name, "'default' names the root group in rdtscope");
    return {};
}

Status checkGroupPath(std::string_view path)
{
    if (path.empty()) return {};
    auto parts = splitBeneath(path);
    if (!parts) return invalid("group path", path, parts.error().message.substr(parts.error().message.rfind(": ") + 2));
    const auto& p = *parts;
    auto nameOk = [&](const std::string& n) -> Status {
        if (auto s = checkGroupName(n); !s)
            return invalid("group path", path, "'" + printable(n) + "' is not a group name");
        return {};
    };
    if (p.size() == 1) return nameOk(p[0]);
    if (p.size() == 2 && p[0] == "mon_groups") return nameOk(p[1]);
    if (p.size() == 3 && p[1] == "mon_groups") {
        if (auto s = nameOk(p[0]); !s) return s;
        return nameOk(p[2]);
    }
    return invalid("group path", path, "groups are NAME, mon_groups/NAME or NAME/mon_groups/NAME");
}

} // namespace rdt
