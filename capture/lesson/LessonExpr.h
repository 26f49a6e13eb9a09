// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The small arithmetic a lesson uses to name what the simulator measured: `occupancy(victim) / $before`,
// `ways(streamer) <= 2` (docs/LESSONS.md "Expressions"). Parsed once; evaluated against a Measurements.

#include "core/Result.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rdt::lesson {

/// What an expression can ask of a run. nullopt: not measured (yet), with the reason in `why`.
class Measurements {
public:
    virtual ~Measurements() = default;
    /// A function of a group: occupancy, bandwidth, local, wraps, ways, mb, exists (LessonExpr.cpp lists them).
    virtual std::optional<double> metric(
        const std::string& function, const std::vector<std::string>& args, std::string& why) const = 0;
    virtual std::optional<double> variable(const std::string& name, std::string& why) const = 0;
};

struct ExprNode;

/// A parsed expression; `text` is the source, kept for messages and reports.
struct Expr {
    std::string text;
    std::shared_ptr<const ExprNode> root;
    bool valid() const { return root != nullptr; }
    /// The value, or an error naming what was not measured.
    Result<double> evaluate(const Measurements& m) const;
};

/// `EXPR OP EXPR` with OP one of < <= > >= ==.
struct Condition {
    std::string text;
    Expr left, right;
    std::string op;
    Result<bool> evaluate(const Measurements& m) const;
};

/// Parse errors say where in the text ("unknown function 'occupncy'", "expected ')' at column 14").
Result<Expr> parseExpr(const std::string& text);
Result<Condition> parseCondition(const std::string& text);

/// The functions expressions may call, with their meaning (for docs and error advice).
const std::vector<std::pair<std::string, std::string>>& exprFunctions();

} // namespace rdt::lesson
