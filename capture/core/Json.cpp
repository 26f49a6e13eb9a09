// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/Json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>

namespace rdt::json {

namespace {

// Walks the text like a const char*, recording how far the parser has read: the nesting limit is enforced from
// the parser callback, which is not told the position, and the error should still name the byte.
struct TrackingIterator {
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    const char* at = nullptr;
    const char** reached = nullptr;

    reference operator*() const { return *at; }
    TrackingIterator& operator++()
    {
        *reached = ++at;
        return *this;
    }
    TrackingIterator operator++(int)
    {
        TrackingIterator before = *this;
        ++*this;
        return before;
    }
    bool operator==(const TrackingIterator& other) const { return at == other.at; }
};

// Thrown from the parser callback: the library offers no other way to stop a DOM parse midway.
struct TooDeep { };

Error parseError(std::size_t offset, const std::string& what)
{
    return makeError("invalid JSON at byte " + std::to_string(offset) + ": " + what,
        "the file is truncated or was not written by rdtscope");
}

// "[json.exception.parse_error.101] parse error at line 1, column 4: syntax error ..." -> "syntax error ...":
// the byte offset replaces line and column, as in every other parse error rdtscope prints.
std::string reason(const char* what)
{
    const std::string text = what;
    const auto column = text.find("column ");
    const auto colon = column == std::string::npos ? std::string::npos : text.find(": ", column);
    return colon == std::string::npos ? text : text.substr(colon + 2);
}

} // namespace

Result<Value> parse(std::string_view text)
{
    const char* reached = text.data();
    const TrackingIterator first { text.data(), &reached };
    const TrackingIterator last { text.data() + text.size(), &reached };
    const Value::parser_callback_t limitDepth = [](int depth, Value::parse_event_t event, Value&) {
        const bool opens = event == Value::parse_event_t::object_start || event == Value::parse_event_t::array_start;
        if (opens && depth >= kMaxDepth) throw TooDeep {};
        return true;
    };
    try {
        return Value::parse(first, last, limitDepth);
    } catch (const TooDeep&) {
        // The callback runs once the opening bracket has been read: it is the byte before `reached`.
        return parseError(static_cast<std::size_t>(reached - text.data()) - 1,
            "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    } catch (const Value::parse_error& e) {
        return parseError(e.byte ? e.byte - 1 : 0, reason(e.what()));
    } catch (const Value::exception& e) {
        return parseError(static_cast<std::size_t>(reached - text.data()), reason(e.what()));
    }
}

std::string dump(const Ordered& value)
{
    return value.dump(-1, ' ', false, Ordered::error_handler_t::replace);
}

std::string dumpLined(const Ordered& object, std::string_view linedKey)
{
    if (!object.is_object()) return dump(object) + "\n";
    std::string out = "{";
    bool first = true;
    for (const auto& [key, value] : object.items()) {
        if (!first) out += value.is_structured() ? ",\n" : ",";
        first = false;
        out += dump(Ordered(key)) + ":";
        if (key != linedKey || !value.is_array()) {
            out += dump(value);
            continue;
        }
        out += "[";
        for (std::size_t i = 0; i < value.size(); ++i)
            out += (i ? ",\n" : "\n") + dump(value[i]);
        out += "\n]";
    }
    return out + "}\n";
}

Ordered number(double value, int significantDigits)
{
    if (!std::isfinite(value)) return nullptr;
    if (significantDigits < 17) {
        // to_chars/from_chars, not printf/strtod: those follow LC_NUMERIC, which the GUI sets.
        char buf[32];
        const auto printed = std::to_chars(
            buf, buf + sizeof buf, value, std::chars_format::general, std::clamp(significantDigits, 1, 17));
        double rounded = value;
        if (std::from_chars(buf, printed.ptr, rounded).ec == std::errc {}) value = rounded;
    }
    // Integral values up to 2^53 print as integers ("3", not "3.0"), as the writers before the library did.
    constexpr double kExactIntegers = 9007199254740992.0;
    if (value == std::trunc(value) && std::fabs(value) <= kExactIntegers) return static_cast<std::int64_t>(value);
    return value;
}

} // namespace rdt::json
