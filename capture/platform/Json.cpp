// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/Json.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace rdt::json {

const Value* Value::member(const std::string& key) const
{
    if (kind != Kind::Object) return nullptr;
    auto it = object.find(key);
    return it == object.end() ? nullptr : &it->second;
}

namespace {

class Parser {
public:
    explicit Parser(const std::string& text)
        : m_text(text)
    { }

    Result<Value> document()
    {
        Value v;
        if (!value(v, 0)) return fail();
        skipSpace();
        if (m_pos != m_text.size()) {
            m_error = "trailing characters";
            return fail();
        }
        return v;
    }

private:
    Error fail() const
    {
        return makeError("invalid JSON at byte " + std::to_string(m_pos) + ": " + m_error,
            "the file is truncated or was not written by rdtscope");
    }

    void skipSpace()
    {
        while (m_pos < m_text.size()
            && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\r' || m_text[m_pos] == '\t'))
            ++m_pos;
    }

    bool literal(const char* word)
    {
        std::string w(word);
        if (m_text.compare(m_pos, w.size(), w) != 0) {
            m_error = "unexpected token";
            return false;
        }
        m_pos += w.size();
        return true;
    }

    bool value(Value& out, int depth)
    {
        if (depth > 64) {
            m_error = "nesting too deep";
            return false;
        }
        skipSpace();
        if (m_pos >= m_text.size()) {
            m_error = "unexpected end";
            return false;
        }
        const char c = m_text[m_pos];
        if (c == '{') return object(out, depth);
        if (c == '[') return array(out, depth);
        if (c == '"') {
            out.kind = Value::Kind::String;
            return string(out.string);
        }
        if (c == 't') {
            out.kind = Value::Kind::Bool;
            out.boolean = true;
            return literal("true");
        }
        if (c == 'f') {
            out.kind = Value::Kind::Bool;
            return literal("false");
        }
        if (c == 'n') {
            out.kind = Value::Kind::Null;
            return literal("null");
        }
        return number(out);
    }

    bool object(Value& out, int depth)
    {
        out.kind = Value::Kind::Object;
        ++m_pos; // '{'
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '}') {
            ++m_pos;
            return true;
        }
        for (;;) {
            skipSpace();
            std::string key;
            if (m_pos >= m_text.size() || m_text[m_pos] != '"') {
                m_error = "expected a member name";
                return false;
            }
            if (!string(key)) return false;
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != ':') {
                m_error = "expected ':'";
                return false;
            }
            ++m_pos;
            Value v;
            if (!value(v, depth + 1)) return false;
            out.object[key] = std::move(v);
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == '}') {
                ++m_pos;
                return true;
            }
            m_error = "expected ',' or '}'";
            return false;
        }
    }

    bool array(Value& out, int depth)
    {
        out.kind = Value::Kind::Array;
        ++m_pos; // '['
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == ']') {
            ++m_pos;
            return true;
        }
        for (;;) {
            Value v;
            if (!value(v, depth + 1)) return false;
            out.array.push_back(std::move(v));
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == ']') {
                ++m_pos;
                return true;
            }
            m_error = "expected ',' or ']'";
            return false;
        }
    }

    static void appendUtf8(std::string& s, unsigned cp)
    {
        if (cp < 0x80) {
            s += static_cast<char>(cp);
        } else if (cp < 0x800) {
            s += static_cast<char>(0xC0 | (cp >> 6));
            s += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            s += static_cast<char>(0xE0 | (cp >> 12));
            s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            s += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    bool string(std::string& out)
    {
        ++m_pos; // '"'
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos++];
            if (c == '"') return true;
            if (static_cast<unsigned char>(c) < 0x20) {
                m_error = "control character in string";
                return false;
            }
            if (c != '\\') {
                out += c;
                continue;
            }
            if (m_pos >= m_text.size()) break;
            const char e = m_text[m_pos++];
            switch (e) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                if (m_pos + 4 > m_text.size()) {
                    m_error = "short \\u escape";
                    return false;
                }
                const std::string hex = m_text.substr(m_pos, 4);
                char* end = nullptr;
                const unsigned long cp = std::strtoul(hex.c_str(), &end, 16);
                if (end != hex.c_str() + 4) {
                    m_error = "bad \\u escape";
                    return false;
                }
                m_pos += 4;
                appendUtf8(out, static_cast<unsigned>(cp));
                break;
            }
            default:
                m_error = "bad escape";
                return false;
            }
        }
        m_error = "unterminated string";
        return false;
    }

    bool number(Value& out)
    {
        const std::size_t start = m_pos;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')
                ++m_pos;
            else
                break;
        }
        if (m_pos == start) {
            m_error = "unexpected character";
            return false;
        }
        const std::string token = m_text.substr(start, m_pos - start);
        char* end = nullptr;
        errno = 0;
        out.number = std::strtod(token.c_str(), &end);
        if (end != token.c_str() + token.size() || errno == ERANGE) {
            m_pos = start;
            m_error = "bad number";
            return false;
        }
        out.kind = Value::Kind::Number;
        return true;
    }

    const std::string& m_text;
    std::size_t m_pos = 0;
    std::string m_error;
};

} // namespace

Result<Value> parse(const std::string& text)
{
    return Parser(text).document();
}

std::string quote(const std::string& text)
{
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                out += buf;
            } else {
                out += c;
            }
        }
    }
    out += '"';
    return out;
}

} // namespace rdt::json
