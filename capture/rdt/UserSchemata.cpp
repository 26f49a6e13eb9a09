// SPDX-License-Identifier: GPL-3.0-or-later
#include "UserSchemata.h"
#include "BandwidthUnit.h"
#include "RdtBackend.h"

#include <functional>

namespace rdt {
namespace {

/// Rewrites every bandwidth value of `text` ("MB:0=2GB/s;1=16" -> "MB:0=<fn(MB, 2GB/s)>;1=<fn(MB, 16)>"), leaving
/// cache lines and anything malformed to parseStrict, which names the problem.
using ValueFn = std::function<Result<std::string>(const std::string& resource, std::string_view value)>;
Result<std::string> rewriteBandwidthValues(std::string_view text, const ValueFn& fn)
{
    std::string out;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view {} : text.substr(nl + 1);
        const auto colon = line.find(':');
        const std::string resource(trim(line.substr(0, colon == std::string_view::npos ? 0 : colon)));
        if (colon == std::string_view::npos || resource.empty() || isCacheResource(resource)) {
            out.append(line).push_back('\n');
            continue;
        }
        out.append(line.substr(0, colon + 1));
        std::string_view rest = line.substr(colon + 1);
        bool first = true;
        while (true) {
            const auto semi = rest.find(';');
            const std::string_view item = rest.substr(0, semi);
            if (!first) out.push_back(';');
            first = false;
            const auto eq = item.find('=');
            if (eq == std::string_view::npos || trim(item.substr(eq + 1)).empty()) {
                out.append(item);
            } else {
                auto v = fn(resource, trim(item.substr(eq + 1)));
                if (!v) return v.error();
                out.append(item.substr(0, eq + 1)).append(*v);
            }
            if (semi == std::string_view::npos) break;
            rest = rest.substr(semi + 1);
        }
        out.push_back('\n');
    }
    return out;
}

} // namespace

Result<Schemata> parseUserSchemata(std::string_view text, const Capabilities& caps)
{
    auto raw = rewriteBandwidthValues(text, [&](const std::string& resource, std::string_view value) {
        const ResourceCaps* r = caps.resource(resource);
        if (!r || r->kind != ResourceKind::Bandwidth) return Result<std::string>(std::string(value));
        auto v = parseBandwidthInput(*r, value);
        if (!v) return Result<std::string>(v.error()); // its message names the resource
        return Result<std::string>(std::to_string(*v));
    });
    if (!raw) return raw.error();
    return Schemata::parseStrict(*raw);
}

Status checkUserSchemataSyntax(std::string_view text)
{
    auto raw = rewriteBandwidthValues(text, [](const std::string&, std::string_view value) {
        std::size_t used = 0;
        const bool number = parseFiniteDouble(value, &used).has_value() && used > 0;
        return Result<std::string>(std::string(number ? std::string_view("0") : value));
    });
    if (!raw) return raw.error();
    if (auto s = Schemata::parseStrict(*raw); !s) return s.error();
    return {};
}

} // namespace rdt
