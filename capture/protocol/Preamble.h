// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace rdt::protocol {

/// The protocol this build speaks (docs/PROTOCOL.md "Versions"). Bump on any incompatible change.
inline constexpr std::uint32_t kProtocolVersion = 1;
/// The oldest protocol this build still speaks.
inline constexpr std::uint32_t kMinProtocolVersion = 1;

/// Both sides start with these 12 bytes, before any frame: "RDTSCOPE" and the sender's protocol version
/// (u32 big-endian). They let each side tell at once whether it talks to rdtscope at all.
inline constexpr std::size_t kPreambleBytes = 12;
inline constexpr std::array<std::uint8_t, 8> kMagic = { 'R', 'D', 'T', 'S', 'C', 'O', 'P', 'E' };

std::array<std::uint8_t, kPreambleBytes> encodePreamble(std::uint32_t version = kProtocolVersion);

/// The peer's protocol version, or an Error that says what the bytes look like instead: text printed by a
/// shell or a login script ("bash: rdtscope-agent: command not found"), or binary garbage. `peerName` is
/// "the agent on HOST" or "the client", for the message.
Result<std::uint32_t> parsePreamble(std::span<const std::uint8_t> bytes, const std::string& peerName);

/// Printable excerpt of bytes received where the protocol was expected (control characters escaped).
std::string printableExcerpt(std::span<const std::uint8_t> bytes, std::size_t maxChars = 160);

} // namespace rdt::protocol
