// SPDX-License-Identifier: GPL-3.0-or-later
#include "InfoOrigins.h"

#include <algorithm>

namespace rdt {

void InfoOrigins::mark(std::string key, InfoOrigin origin, std::string why)
{
    auto it = std::find_if(m_entries.begin(), m_entries.end(), [&](const InfoValueOrigin& e) { return e.key == key; });
    if (it == m_entries.end())
        m_entries.push_back({ std::move(key), origin, std::move(why) });
    else
        *it = { std::move(key), origin, std::move(why) };
}

const InfoValueOrigin* InfoOrigins::find(std::string_view key) const
{
    auto it = std::find_if(m_entries.begin(), m_entries.end(), [&](const InfoValueOrigin& e) { return e.key == key; });
    return it == m_entries.end() ? nullptr : &*it;
}

InfoOrigin InfoOrigins::of(std::string_view key) const
{
    const auto* e = find(key);
    return e ? e->origin : InfoOrigin::Read;
}

std::string InfoOrigins::why(std::string_view key) const
{
    const auto* e = find(key);
    return e ? e->why : std::string();
}

std::string InfoOrigins::show(std::string_view key, const std::string& text) const
{
    const auto* e = find(key);
    if (!e || e->origin == InfoOrigin::Read) return text;
    if (e->origin == InfoOrigin::Inferred) return text + " (inferred " + e->why + ")";
    return "unknown (" + e->why + ")";
}

} // namespace rdt
