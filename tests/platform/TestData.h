// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "platform/CpuFeatures.h"
#include "platform/CpuidDump.h"

#include <gtest/gtest.h>

#include <string>

namespace rdt::test {

inline std::string cpuidDumpPath(const std::string& file)
{
    return std::string(RDTSCOPE_TEST_DATA) + "/cpuid/" + file;
}

inline const char* const kHaswellEP = "GenuineIntel00306F2_HaswellEP_CPUID.txt";
inline const char* const kBroadwellE = "GenuineIntel00406F1_BroadwellE_CPUID.txt";
inline const char* const kSkylakeSP = "GenuineIntel0050654_SkylakeXeon_CPUID5.txt";
inline const char* const kCascadeLake = "GenuineIntel0050657_CascadeLakeSP_CPUID1.txt";
inline const char* const kIceLakeSP = "GenuineIntel00606A6_ICX_CPUID3.txt";
inline const char* const kXeonD1718T = "GenuineIntel00606C1_ICX_01v_CPUID.txt";

inline CpuidTable loadDump(const std::string& file, unsigned cpu = 0)
{
    auto t = loadCpuidDump(cpuidDumpPath(file), cpu);
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().toString());
    return t.ok() ? std::move(*t) : CpuidTable();
}

inline CpuFeatures decodeDump(const std::string& file, unsigned cpu = 0)
{
    CpuidTable t = loadDump(file, cpu);
    return decodeCpuFeatures(t);
}

} // namespace rdt::test
