// SPDX-License-Identifier: GPL-3.0-or-later
#include "ControlDescription.h"

namespace rdt::api {

std::optional<double> ControlDescription::quantityOf(std::uint64_t raw) const
{
    if (!scale || !resolution || *resolution == 0) return std::nullopt;
    return static_cast<double>(raw) * static_cast<double>(*scale) / static_cast<double>(*resolution);
}

std::string ControlDescription::summary() const
{
    auto number = [](const std::optional<std::uint64_t>& v) { return v ? std::to_string(*v) : std::string("unknown"); };
    auto text = [](const std::string& v) { return v.empty() ? std::string("unknown") : v; };
    std::string s = text(type) + ", " + number(min) + ".." + number(max);
    if (unit == "all" && resolution) s += ", " + std::to_string(*resolution) + " = the whole resource";
    s += " (unit " + text(unit) + ", resolution " + number(resolution) + ", scale " + number(scale) + ", tolerance "
        + number(tolerance) + "), scope " + text(scope);
    return s;
}

} // namespace rdt::api
