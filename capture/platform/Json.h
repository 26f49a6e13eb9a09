// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rdt::json {

/// A small, dependency-free JSON value for the formats rdtscope writes itself (CPUID snapshots, `info --json`).
/// Numbers are kept as double; the snapshot stores register values as hex strings so nothing is lost.
struct Value {
    enum class Kind { Null, Bool, Number, String, Array, Object };
    Kind kind = Kind::Null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<Value> array;
    std::map<std::string, Value> object;

    const Value* member(const std::string& key) const; ///< nullptr when absent or not an object
    bool isObject() const { return kind == Kind::Object; }
    bool isArray() const { return kind == Kind::Array; }
    bool isString() const { return kind == Kind::String; }
    bool isNumber() const { return kind == Kind::Number; }
    bool isBool() const { return kind == Kind::Bool; }
};

/// Parses a whole document; errors name the byte offset. Depth is limited (64) so hostile input cannot
/// exhaust the stack.
Result<Value> parse(const std::string& text);

/// "text" with quotes, backslashes and control characters escaped (\uXXXX), quotes included.
std::string quote(const std::string& text);

} // namespace rdt::json
