// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "platform/CpuidSource.h"

#include "core/Result.h"

#include <string>

namespace rdt {

/// Readers for CPUID dumps (the formats and the rules that place each line are docs/CPUID-DUMPS.md). Each returns a
/// CpuidTable (a CpuidSource) or an Error. They never guess: a line that cannot be placed is skipped with a note
/// (CpuidSource::notes, shown as a warning by the decoder).

enum class CpuidDumpFormat { Aida64, CpuidRaw, Json, Unknown };

/// InstLatx64 / AIDA64 / EVEREST text: blocks `------[ Logical CPU #n ]------`, lines
/// `CPUID 0000000F: EAX-EBX-ECX-EDX [SL 01]`. Reads logical CPU #logicalCpu (default #0); in a file without CPU
/// blocks each leaf-0 line starts the next CPU; untagged repeated lines of a sub-leaf-indexed leaf are its successive
/// sub-leaves. Fails when the CPU is missing (saying how many the file holds) or holds no CPUID line.
Result<CpuidTable> parseAida64Dump(const std::string& text, unsigned logicalCpu = 0, const std::string& name = {});

/// `cpuid -r` output (Todd Allen's cpuid tool): `CPU n:` blocks with lines
/// `   0x0000000f 0x01: eax=0x00000000 ebx=0x00012000 ecx=0x0000008f edx=0x00000007`.
Result<CpuidTable> parseRawCpuidDump(const std::string& text, unsigned logicalCpu = 0, const std::string& name = {});

/// Our own JSON snapshot (what sessions store):
/// {"format":"rdtscope-cpuid","version":1,"source":"...","entries":[
///   {"leaf":"0x00000010","subleaf":1,"labelled":true,"eax":"0x0000000a","ebx":"0x00000600","ecx":"0x00000004","edx":"0x0000000f"},
///   ...]}
std::string cpuidTableToJson(const CpuidTable& table);
Result<CpuidTable> cpuidTableFromJson(const std::string& json);

/// Guesses the format from the content (JSON object, `CPU n:` + `eax=`, `CPUID xxxxxxxx:`).
CpuidDumpFormat detectCpuidDumpFormat(const std::string& text);

/// Reads a file in any of the formats above (logical CPU #logicalCpu for multi-CPU dumps).
/// Errors: ENOENT/EACCES from opening, EINVAL "not a CPUID dump" with the accepted formats as advice.
Result<CpuidTable> loadCpuidDump(const std::string& path, unsigned logicalCpu = 0);

} // namespace rdt
