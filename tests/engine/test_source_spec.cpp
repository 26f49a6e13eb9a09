// SPDX-License-Identifier: GPL-3.0-or-later
// The one grammar of --source (api/SourceSpec.h) and what the engine does with it: simulator options refused where
// they would be ignored, never dropped; `auto` honouring --preset when it falls back to the simulator; whether a
// source can be written decided by the engine (api/Writability.h).
#include "api/SourceSpec.h"
#include "engine/CaptureService.h"
#include "engine/SourceAssembly.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace rdt;

namespace {
RdtSourceOptions autoWithoutResctrl(const std::string& mountsFile)
{
    RdtSourceOptions o;
    o.spec = "auto";
    o.mountsFile = mountsFile;
    return o;
}

std::string emptyMountsFile()
{
    const auto path = std::filesystem::temp_directory_path() / ("rdtscope-mounts-" + std::to_string(::getpid()));
    std::ofstream(path) << "proc /proc proc rw 0 0\n";
    return path.string();
}
} // namespace

TEST(SourceSpec, ParsesEveryFormAndSpellsItBack)
{
    const std::pair<const char*, api::SourceKind> forms[]
        = { { "auto", api::SourceKind::Auto }, { "sim", api::SourceKind::Sim }, { "sim-msr", api::SourceKind::SimMsr },
              { "sim-msr:/tmp/regs", api::SourceKind::SimMsr }, { "resctrl", api::SourceKind::Resctrl },
              { "resctrl:/tmp/tree:with:colons", api::SourceKind::Resctrl }, { "msr", api::SourceKind::Msr } };
    for (const auto& [text, kind] : forms) {
        auto spec = api::parseSourceSpec(text);
        ASSERT_TRUE(spec.ok()) << text << ": " << spec.error().toString();
        EXPECT_EQ(spec->kind, kind) << text;
        EXPECT_EQ(spec->text(), text);
    }
    EXPECT_EQ(api::parseSourceSpec("resctrl:/a:b")->path, "/a:b");
    EXPECT_TRUE(api::parseSourceSpec("sim")->simulated());
    EXPECT_FALSE(api::parseSourceSpec("resctrl:/x")->simulated());
}

TEST(SourceSpec, RefusesWhatItCannotMean)
{
    for (const char* bad : { "", "simulator", "SIM", "resctrl:", "sim-msr:", "sim:/tmp", "msr:0", "auto:x", ":x" }) {
        auto spec = api::parseSourceSpec(bad);
        ASSERT_FALSE(spec.ok()) << "'" << bad << "' was accepted";
        EXPECT_EQ(spec.error().code, EINVAL);
        EXPECT_FALSE(spec.error().advice.empty()) << bad;
    }
    EXPECT_NE(api::parseSourceSpec("simulator").error().advice.find("resctrl[:PATH]"), std::string::npos);
}

TEST(SourceSpec, SimulatorOptionsApplyOnlyWhereTheyMeanSomething)
{
    const auto spec = [](const char* t) { return *api::parseSourceSpec(t); };
    EXPECT_TRUE(api::checkSimulatorOptions(spec("sim"), "mba", "epyc-genoa").ok());
    EXPECT_TRUE(api::checkSimulatorOptions(spec("auto"), "mba", "epyc-genoa").ok()); // decided once auto chose
    EXPECT_TRUE(api::checkSimulatorOptions(spec("sim-msr:/tmp/r"), "mba", "").ok());
    EXPECT_TRUE(api::checkSimulatorOptions(spec("resctrl"), "", "").ok());
    const auto presetOnMsr = api::checkSimulatorOptions(spec("sim-msr"), "", "epyc-genoa");
    ASSERT_FALSE(presetOnMsr.ok());
    EXPECT_NE(presetOnMsr.error().message.find("--preset"), std::string::npos);
    for (const char* real : { "resctrl", "resctrl:/tmp/full", "msr" }) {
        const auto scenario = api::checkSimulatorOptions(spec(real), "mba", "");
        ASSERT_FALSE(scenario.ok()) << real;
        EXPECT_NE(scenario.error().message.find("--scenario applies to the simulated machine only"), std::string::npos)
            << scenario.error().message;
        EXPECT_NE(scenario.error().message.find(real), std::string::npos);
        const auto preset = api::checkSimulatorOptions(spec(real), "", "epyc-genoa");
        ASSERT_FALSE(preset.ok()) << real;
        EXPECT_NE(preset.error().message.find("--preset applies"), std::string::npos);
        EXPECT_NE(preset.error().advice.find("--source sim"), std::string::npos);
    }
}

TEST(SourceAssembly, RefusesSimulatorOptionsOnARealTreeInsteadOfIgnoringThem)
{
    RdtSourceOptions o;
    o.spec = "resctrl:" + std::string(RDTSCOPE_TEST_DATA) + "/resctrl/resctrl.full";
    o.simPreset = "epyc-genoa";
    auto refused = openRdtSource(o);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("--preset"), std::string::npos) << refused.error().toString();
    o.simPreset.clear();
    o.scenario = "mba";
    EXPECT_FALSE(openRdtSource(o).ok());
    o.scenario.clear();
    auto opened = openRdtSource(o);
    EXPECT_TRUE(opened.ok()) << opened.error().toString();
}

TEST(SourceAssembly, AutoFallingBackToTheSimulatorRunsThePresetAsked)
{
    const auto mounts = emptyMountsFile();
    auto o = autoWithoutResctrl(mounts);
    o.simPreset = "epyc-genoa";
    auto s = openRdtSource(o);
    std::filesystem::remove(mounts);
    ASSERT_TRUE(s.ok()) << s.error().toString();
    ASSERT_TRUE(s->simulated);
    ASSERT_NE(s->simulation, nullptr);
    EXPECT_NE(s->simulation->describe().find("EPYC"), std::string::npos) << s->simulation->describe();
    EXPECT_NE(s->why.find("preset epyc-genoa"), std::string::npos) << s->why;
    auto caps = s->backend->capabilities();
    ASSERT_TRUE(caps.ok());
    const ResourceCaps* mb = caps->resource("MB");
    ASSERT_NE(mb, nullptr);
    EXPECT_EQ(mb->bandwidthUnit, BandwidthUnit::EighthGBps); // AMD's caps, not the default Skylake's percent
}

TEST(SourceAssembly, AutoWithAnUnknownPresetSaysSo)
{
    const auto mounts = emptyMountsFile();
    auto o = autoWithoutResctrl(mounts);
    o.simPreset = "no-such-cpu";
    auto s = openRdtSource(o);
    std::filesystem::remove(mounts);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().toString().find("no-such-cpu"), std::string::npos) << s.error().toString();
}

TEST(Writability, DecidedByTheEngineForEachSource)
{
    auto denied = [](const std::string&, std::string* why) {
        *why = "Permission denied";
        return false;
    };
    auto allowed = [](const std::string&, std::string*) { return true; };
    RdtSource resctrl;
    resctrl.kind = "resctrl";
    resctrl.writeTarget = "/sys/fs/resctrl/schemata";
    const auto no = writabilityOf(resctrl, denied);
    EXPECT_FALSE(no.writable);
    EXPECT_EQ(no.reason, "no write access to /sys/fs/resctrl/schemata (Permission denied)");
    EXPECT_NE(no.fix.find("root"), std::string::npos);
    EXPECT_EQ(no.text(), no.reason + ": " + no.fix);
    EXPECT_TRUE(writabilityOf(resctrl, allowed).writable);
    EXPECT_EQ(writabilityOf(resctrl, allowed).text(), "");
    RdtSource msr;
    msr.kind = "msr";
    msr.writeTarget = "/dev/cpu/0/msr";
    EXPECT_NE(writabilityOf(msr, denied).text().find("/dev/cpu/0/msr"), std::string::npos);
    EXPECT_NE(writabilityOf(msr, denied).fix.find("modprobe msr"), std::string::npos);
    RdtSource sim;
    sim.kind = "sim";
    EXPECT_TRUE(writabilityOf(sim, denied).writable); // nothing outside the process is written
}

TEST(Writability, TheServiceDescribesItsOpenedSource)
{
    engine::ServiceOptions o;
    o.rdt.spec = "sim";
    auto service = engine::CaptureService::open(o);
    ASSERT_TRUE(service.ok()) << service.error().toString();
    EXPECT_TRUE((*service)->source().writability.writable);
    // A fixture tree opened as resctrl names its schemata as what decides.
    const auto tree = std::filesystem::temp_directory_path() / ("rdtscope-wtree-" + std::to_string(::getpid()));
    std::filesystem::copy(
        std::string(RDTSCOPE_TEST_DATA) + "/resctrl/resctrl.full", tree, std::filesystem::copy_options::recursive);
    o.rdt.spec = "resctrl:" + tree.string();
    auto real = engine::CaptureService::open(o);
    ASSERT_TRUE(real.ok()) << real.error().toString();
    EXPECT_TRUE((*real)->source().writability.writable); // root in the test, and a copy of the tree
    real->reset();
    std::filesystem::remove_all(tree);
}
