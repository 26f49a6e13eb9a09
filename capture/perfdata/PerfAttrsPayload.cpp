// SPDX-License-Identifier: GPL-3.0-or-later
#include "PerfAttrsPayload.h"

#include "pmu/PerfRecordBytes.h"

#include <cstring>

namespace rdt::perfdata {

namespace {
template <typename T> void put(std::vector<std::uint8_t>& b, T v)
{
    const auto at = b.size();
    b.resize(at + sizeof v);
    std::memcpy(b.data() + at, &v, sizeof v);
}
} // namespace

std::vector<std::uint8_t> encodeAttrsPayload(
    const pmu::RecordDecoder& decoder, const std::vector<std::vector<std::uint64_t>>& idsPerEvent)
{
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i < decoder.eventCount(); ++i) {
        const auto bytes = pmu::serializeEventAttr(decoder.event(i));
        put(out, static_cast<std::uint32_t>(bytes.size()));
        const auto at = out.size();
        out.resize(at + bytes.size());
        std::memcpy(out.data() + at, bytes.data(), bytes.size());
        const auto& ids = i < idsPerEvent.size() ? idsPerEvent[i] : std::vector<std::uint64_t> {};
        put(out, static_cast<std::uint32_t>(ids.size()));
        for (auto id : ids)
            put(out, id);
    }
    return out;
}

Status decoderFromAttrsPayload(const std::vector<std::uint8_t>& payload, pmu::RecordDecoder& decoder)
{
    pmu::ByteCursor c({ reinterpret_cast<const std::byte*>(payload.data()), payload.size() });
    while (c.left() > 0) {
        std::uint32_t n = 0, nIds = 0;
        std::span<const std::byte> attrBytes;
        if (!c.u32(n) || !c.bytes(n, attrBytes))
            return makeError("perf-attrs batch truncated", "the session file is damaged");
        auto attr = pmu::parseEventAttr(attrBytes);
        if (!attr) return attr.error();
        if (!c.u32(nIds) || nIds > c.left() / 8)
            return makeError("perf-attrs batch truncated in its ids", "the session file is damaged");
        std::vector<std::uint64_t> ids(nIds);
        for (auto& id : ids)
            (void)c.u64(id);
        decoder.addEvent(*attr, ids);
    }
    return {};
}

} // namespace rdt::perfdata
