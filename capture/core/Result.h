// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Error.h"

#include <cassert>
#include <utility>
#include <variant>

namespace rdt {

/// Either a value or an Error. Engine functions return this; nothing throws across threads.
template <typename T> class [[nodiscard]] Result {
public:
    Result(T value)
        : m_v(std::move(value))
    { }
    Result(Error error)
        : m_v(std::move(error))
    { }

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() &
    {
        assert(ok());
        return std::get<0>(m_v);
    }
    const T& value() const&
    {
        assert(ok());
        return std::get<0>(m_v);
    }
    T&& value() &&
    {
        assert(ok());
        return std::get<0>(std::move(m_v));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const
    {
        assert(!ok());
        return std::get<1>(m_v);
    }
    T valueOr(T fallback) const { return ok() ? std::get<0>(m_v) : std::move(fallback); }

private:
    std::variant<T, Error> m_v;
};

/// Result for operations that produce no value.
template <> class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error)
        : m_error(std::move(error))
        , m_ok(false)
    { }
    bool ok() const { return m_ok; }
    explicit operator bool() const { return m_ok; }
    const Error& error() const
    {
        assert(!m_ok);
        return m_error;
    }

private:
    Error m_error;
    bool m_ok = true;
};

using Status = Result<void>;

} // namespace rdt
