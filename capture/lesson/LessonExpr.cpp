// SPDX-License-Identifier: GPL-3.0-or-later
#include "LessonExpr.h"

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace rdt::lesson {

struct ExprNode {
    enum class Kind { Number, Variable, Call, Binary, Negate };
    Kind kind = Kind::Number;
    double number = 0;
    std::string name; ///< Variable, Call
    std::vector<std::string> args; ///< Call: group names and resources
    char op = 0; ///< Binary
    std::shared_ptr<const ExprNode> left, right;
};

const std::vector<std::pair<std::string, std::string>>& exprFunctions()
{
    static const std::vector<std::pair<std::string, std::string>> list = {
        { "occupancy", "occupancy(G): G's LLC occupancy in MiB (mean over the step's window)" },
        { "bandwidth", "bandwidth(G): G's total memory bandwidth (MBM total) in MB/s (mean over the window)" },
        { "local", "local(G): G's local memory bandwidth (MBM local) in MB/s (mean over the window)" },
        { "wraps", "wraps(G): G's samples in the step whose MBM delta crossed a counter wrap" },
        { "multiwraps", "multiwraps(G): G's samples in the step whose interval could hide more than one wrap" },
        { "overflows", "overflows(G): G's samples in the step whose read saw IA32_QM_CTR's overflow bit (61) set" },
        { "ways", "ways(G[, RES]): bits set in G's cache mask (RES L3 by default; L3CODE, L3DATA) in domain 0" },
        { "cpuways",
            "cpuways(N[, RES]): bits set in the cache mask (domain 0) of the control group whose cpus hold CPU N" },
        { "mb", "mb(G): G's MB (memory bandwidth allocation) value in domain 0, in percent" },
        { "exists", "exists(G): 1 when the group exists, else 0" },
        { "sampling", "sampling(): the engine's sampling interval in seconds" },
        { "createdat", "createdat(G): simulated seconds at which the lesson first saw group G made" },
        { "removedat", "removedat(G): simulated seconds at which the lesson first saw group G removed" },
        { "cdp", "cdp(): 1 when the groups have L3CODE and L3DATA masks (L3 CDP on), else 0" },
        { "pmu", "pmu(): 1 while the lesson's simulated PMU capture runs, else 0" },
        { "tma", "tma(CAT): a TMA category's share of the capture's slots in percent (retiring, frontend, ...)" },
        { "innerbranches", "innerbranches(): sampled LBR entries that branch inside a function (not calls)" },
        { "calls", "calls(F, G): sampled LBR calls from function F to function G" },
        { "mispredicts", "mispredicts(F): percent of the sampled branches inside F that were mispredicted" },
        { "branchshare", "branchshare(F): percent of all sampled branches inside functions that are inside F" },
        { "loads", "loads(SRC): percent of load samples served by SRC (l1 lfb l2 l3 dram remote hitm)" },
        { "latency", "latency([F]): mean load latency in cycles of the load samples (of function F)" },
        { "loadsamples", "loadsamples(): load-latency samples the capture took" },
        { "hitm", "hitm([F]): percent of the load samples (of function F) that hit a modified line in another core" },
    };
    return list;
}

namespace {

class Parser {
public:
    explicit Parser(const std::string& text)
        : m_t(text)
    { }

    Result<std::shared_ptr<const ExprNode>> parseAll()
    {
        auto e = sum();
        if (!e) return e;
        skip();
        if (m_p != m_t.size()) return fail("unexpected '" + std::string(1, m_t[m_p]) + "'");
        return e;
    }

private:
    using Node = std::shared_ptr<const ExprNode>;

    Error fail(const std::string& what) const
    {
        return makeError(what + " at column " + std::to_string(m_p + 1) + " of '" + m_t + "'",
            "expressions are numbers, $names and functions (occupancy(G), bandwidth(G), ways(G), ...) joined "
            "by + - * / and parentheses (docs/LESSONS.md)");
    }
    void skip()
    {
        while (m_p < m_t.size() && std::isspace(static_cast<unsigned char>(m_t[m_p])))
            ++m_p;
    }
    bool eat(char c)
    {
        skip();
        if (m_p < m_t.size() && m_t[m_p] == c) {
            ++m_p;
            return true;
        }
        return false;
    }
    static bool wordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }
    std::string word()
    {
        skip();
        const auto start = m_p;
        while (m_p < m_t.size() && (wordChar(m_t[m_p]) || m_t[m_p] == '/'))
            ++m_p;
        return m_t.substr(start, m_p - start);
    }
    Result<Node> binary(Result<Node> (Parser::*next)(), const char* ops)
    {
        auto left = (this->*next)();
        if (!left) return left;
        Node l = *left;
        for (;;) {
            skip();
            if (m_p >= m_t.size() || !std::strchr(ops, m_t[m_p])) return l;
            const char op = m_t[m_p++];
            auto right = (this->*next)();
            if (!right) return right;
            auto n = std::make_shared<ExprNode>();
            n->kind = ExprNode::Kind::Binary;
            n->op = op;
            n->left = l;
            n->right = *right;
            l = n;
        }
    }
    Result<Node> sum() { return binary(&Parser::product, "+-"); }
    Result<Node> product() { return binary(&Parser::unary, "*/"); }
    Result<Node> unary()
    {
        if (eat('-')) {
            auto inner = unary();
            if (!inner) return inner;
            auto n = std::make_shared<ExprNode>();
            n->kind = ExprNode::Kind::Negate;
            n->left = *inner;
            return Node(n);
        }
        return primary();
    }
    Result<Node> primary()
    {
        skip();
        if (m_p >= m_t.size()) return fail("expected a value");
        auto n = std::make_shared<ExprNode>();
        const char c = m_t[m_p];
        if (eat('(')) {
            auto inner = sum();
            if (!inner) return inner;
            if (!eat(')')) return fail("expected ')'");
            return inner;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            char* end = nullptr;
            n->number = std::strtod(m_t.c_str() + m_p, &end);
            m_p = static_cast<std::size_t>(end - m_t.c_str());
            return Node(n);
        }
        if (eat('$')) {
            n->kind = ExprNode::Kind::Variable;
            n->name = word();
            if (n->name.empty()) return fail("expected a name after '$'");
            return Node(n);
        }
        const auto at = m_p;
        n->kind = ExprNode::Kind::Call;
        n->name = word();
        if (n->name.empty()) return fail("unexpected '" + std::string(1, c) + "'");
        bool known = false;
        for (const auto& f : exprFunctions())
            known = known || f.first == n->name;
        if (!known) {
            m_p = at;
            return fail("unknown function '" + n->name + "'");
        }
        if (!eat('(')) return fail("expected '(' after " + n->name);
        if (!eat(')')) {
            do {
                auto a = word();
                if (a.empty()) return fail("expected a group name");
                n->args.push_back(a);
            } while (eat(','));
            if (!eat(')')) return fail("expected ')'");
        }
        return Node(n);
    }

    const std::string& m_t;
    std::size_t m_p = 0;
};

Result<double> eval(const ExprNode& n, const Measurements& m)
{
    std::string why;
    switch (n.kind) {
    case ExprNode::Kind::Number:
        return n.number;
    case ExprNode::Kind::Variable: {
        auto v = m.variable(n.name, why);
        if (!v) return makeError("$" + n.name + " is not known: " + why);
        return *v;
    }
    case ExprNode::Kind::Call: {
        auto v = m.metric(n.name, n.args, why);
        if (!v) return makeError(n.name + " is not measured: " + why);
        return *v;
    }
    case ExprNode::Kind::Negate: {
        auto v = eval(*n.left, m);
        if (!v) return v;
        return -*v;
    }
    case ExprNode::Kind::Binary:
        break;
    }
    auto l = eval(*n.left, m);
    if (!l) return l;
    auto r = eval(*n.right, m);
    if (!r) return r;
    switch (n.op) {
    case '+':
        return *l + *r;
    case '-':
        return *l - *r;
    case '*':
        return *l * *r;
    default:
        if (*r == 0) return makeError("division by zero (the divisor measured 0)");
        return *l / *r;
    }
}

} // namespace

Result<double> Expr::evaluate(const Measurements& m) const
{
    if (!root) return makeError("empty expression");
    return eval(*root, m);
}

Result<bool> Condition::evaluate(const Measurements& m) const
{
    auto l = left.evaluate(m);
    if (!l) return l.error();
    auto r = right.evaluate(m);
    if (!r) return r.error();
    if (op == "<") return *l < *r;
    if (op == "<=") return *l <= *r;
    if (op == ">") return *l > *r;
    if (op == ">=") return *l >= *r;
    return *l == *r;
}

Result<Expr> parseExpr(const std::string& text)
{
    Parser p(text);
    auto root = p.parseAll();
    if (!root) return root.error();
    return Expr { text, *root };
}

Result<Condition> parseCondition(const std::string& text)
{
    // The comparison is the first of <=, >=, ==, <, > outside parentheses.
    int depth = 0;
    for (const char c : text)
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (depth != 0) return makeError("unbalanced parentheses in '" + text + "'", "every '(' needs its ')'");
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        if (depth != 0 || (c != '<' && c != '>' && c != '=')) continue;
        const bool two = i + 1 < text.size() && text[i + 1] == '=';
        if (c == '=' && !two) break;
        Condition cond;
        cond.text = text;
        cond.op = text.substr(i, two ? 2 : 1);
        auto l = parseExpr(text.substr(0, i));
        if (!l) return l.error();
        auto r = parseExpr(text.substr(i + cond.op.size()));
        if (!r) return r.error();
        cond.left = *l;
        cond.right = *r;
        return cond;
    }
    return makeError("no comparison in '" + text + "'", "a condition compares two expressions: A < B, A >= B, A == B");
}

} // namespace rdt::lesson
