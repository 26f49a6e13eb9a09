// SPDX-License-Identifier: GPL-3.0-or-later
// resctrl trees with info/ files missing (trees copied by libvirt, cAdvisor and koordinator tests, older kernels):
// every value is read, inferred from another file and said so, or unknown naming the file, never a default shown
// as if read (docs/RESCTRL.md "Trees with files missing").
#include "TestTree.h"
#include "rdt/CapabilitiesText.h"
#include "rdt/ResctrlBackend.h"
#include "rdt/VendorFeaturesText.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

using namespace rdt;
using rdt::test::TempTree;

namespace {

const char* kAllTrees[] = { "resctrl.full", "resctrl.l2", "resctrl.l2cdp", "resctrl.nol3", "resctrl.nol3.mbps",
    "resctrl.nomb", "amd.abmc", "amd.bmec", "intel.perfpkg", "intel.snc" };

/// What `info --source` and `alloc show` print about the capabilities, warnings included.
struct Printed {
    std::string text;
    std::vector<std::string> warnings;
};

Printed printedFor(const std::string& root)
{
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(root));
    EXPECT_TRUE(b) << root << ": " << (b ? "" : b.error().toString());
    if (!b) return {};
    auto caps = (*b)->capabilities();
    EXPECT_TRUE(caps);
    if (!caps) return {};
    return { formatResourceLines(*caps) + formatGroupLimits(*caps) + formatVendorFeatures(*caps), (*b)->warnings() };
}

/// The printed line of a resource ("L3      cbm_mask ...") or of L3_MON ("monitoring (L3_MON): ...").
std::string lineOf(const std::string& text, const std::string& dir)
{
    const std::string prefix = dir == "L3_MON" ? "monitoring (L3_MON): "
        : dir == "PERF_PKG_MON"                ? "  PERF_PKG_MON: "
                                               : dir + " ";
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0) return line;
    return {};
}

/// One info file, the words that introduce its value in the printed line and the value a missing file used to
/// print (the default the loader fell back to).
struct DefaultedFile {
    const char* file;
    std::vector<std::string> labels; ///< the first found in the line counts
    const char* defaultShown;
};

// The defaults the loader used before (ResctrlCapabilityReader.cpp's value_or), as they were printed.
const DefaultedFile kDefaulted[] = {
    { "num_closids", { "closids " }, "0" },
    { "min_cbm_bits", { "min_cbm_bits " }, "1" },
    { "shareable_bits", { "shareable_bits " }, "0" },
    { "sparse_masks", { "sparse " }, "no" },
    { "min_bandwidth", { "peak bandwidth, ", "1/8 GB/s, " }, "0" },
    { "bandwidth_gran", { "in steps of " }, "1" },
    { "delay_linear", { "  delay " }, "" },
    { "num_rmids", { "monitoring (L3_MON): ", "  PERF_PKG_MON: " }, "0" },
    { "mon_features", { "events " }, "" },
};

const DefaultedFile* defaultedFile(const std::string& file)
{
    for (const auto& d : kDefaulted)
        if (file == d.file) return &d;
    return nullptr;
}

} // namespace

// The property of issue 43: for every fixture tree with one info file deleted in turn, no value printed equals the
// default that file would have given unless it is marked unknown (naming the file) or inferred.
TEST(ResctrlMissingInfo, NoDefaultIsPrintedAsReadWhenAnInfoFileIsMissing)
{
    int checked = 0;
    for (const char* tree : kAllTrees) {
        std::vector<std::string> files;
        std::string baseline;
        {
            TempTree t(tree);
            baseline = printedFor(t.root()).text;
            for (const auto& e : std::filesystem::recursive_directory_iterator(t.root() + "/info"))
                if (e.is_regular_file()) files.push_back(std::filesystem::relative(e.path(), t.root()).string());
        }
        for (const auto& rel : files) {
            const auto slash = rel.find('/', 5);
            if (slash == std::string::npos) continue; // info/last_cmd_status
            const std::string dir = rel.substr(5, slash - 5);
            const std::string file = rel.substr(slash + 1);
            const auto* d = defaultedFile(file);
            if (!d) continue;
            TempTree t(tree);
            std::filesystem::remove(t.root() + "/" + rel);
            const auto printed = printedFor(t.root());
            SCOPED_TRACE(std::string(tree) + " without " + rel);
            const auto line = lineOf(printed.text, dir);
            ASSERT_FALSE(line.empty()) << "no line for " << dir << " in\n" << printed.text;
            std::size_t at = std::string::npos, labelSize = 0;
            for (const auto& label : d->labels)
                if (at == std::string::npos && (at = line.find(label)) != std::string::npos) labelSize = label.size();
            if (at == std::string::npos) {
                // A value the text never shows for this resource (AMD's granularity, MiBps minimum, a linear delay):
                // then nothing else of the line may have changed either.
                EXPECT_EQ(line, lineOf(baseline, dir)) << "a value of " << rel << " was printed without its label";
                continue;
            }
            const auto value = line.substr(at + labelSize);
            const bool unknown = value.rfind("unknown (" + rel + " is missing)", 0) == 0;
            const bool inferred
                = value.find("(inferred ") != std::string::npos && value.find(rel + " is missing") != std::string::npos;
            EXPECT_TRUE(unknown || inferred)
                << "the value of " << rel << " is not marked unknown or inferred naming the file: " << line;
            if (*d->defaultShown && !inferred) {
                EXPECT_NE(value.rfind(std::string(d->defaultShown) + " ", 0), 0u) << line;
            }
            if (file == "num_closids") {
                // The control-group limit is the minimum over all resources: never "at most 1" from a missing file.
                const auto limits = lineOf(printed.text, "control groups:");
                EXPECT_TRUE(
                    limits.find("unknown (") != std::string::npos || limits.find("inferred from") != std::string::npos)
                    << limits;
                EXPECT_NE(limits.find(rel), std::string::npos) << limits;
            }
            ++checked;
        }
    }
    EXPECT_GE(checked, 40); // every tree's defaulted files, not a loop that found nothing
}

TEST(ResctrlMissingInfo, CbmMaskIsInferredFromTheRootMaskAndSaidSo)
{
    TempTree t("resctrl.full");
    std::filesystem::remove(t.root() + "/info/L3/cbm_mask");
    const auto printed = printedFor(t.root());
    const auto line = lineOf(printed.text, "L3");
    EXPECT_NE(line.find("cbm_mask fffff (inferred from the root schemata's L3 masks, info/L3/cbm_mask is missing)"),
        std::string::npos)
        << printed.text;
    bool warned = false;
    for (const auto& w : printed.warnings)
        warned |= w.find("info/L3/cbm_mask is missing") != std::string::npos;
    EXPECT_TRUE(warned);
}

TEST(ResctrlMissingInfo, ResourcesWithoutTheirFilesAreStillOffered)
{
    // The koordinator case: info/L3 without cbm_mask, MB without min_bandwidth and bandwidth_gran; the root
    // schemata still holds both lines, so "no allocation resources" would be wrong.
    TempTree t("resctrl.full");
    std::filesystem::remove(t.root() + "/info/L3/cbm_mask");
    std::filesystem::remove(t.root() + "/info/MB/min_bandwidth");
    std::filesystem::remove(t.root() + "/info/MB/bandwidth_gran");
    const auto printed = printedFor(t.root());
    EXPECT_EQ(printed.text.find("no allocation resources"), std::string::npos) << printed.text;
    EXPECT_NE(lineOf(printed.text, "MB").find("unknown (info/MB/min_bandwidth is missing)..100"), std::string::npos)
        << printed.text;
}

TEST(ResctrlMissingInfo, ASchemataLineWithoutItsInfoDirectoryIsAResourceWithUnknownValues)
{
    TempTree t("resctrl.full");
    std::filesystem::remove_all(t.root() + "/info/MB");
    const auto printed = printedFor(t.root());
    const auto line = lineOf(printed.text, "MB");
    EXPECT_NE(line.find("closids unknown (info/MB/num_closids is missing)  domains 4"), std::string::npos)
        << printed.text;
    // L3's 16 CLOS bound the groups, but MB's count is unknown: the limit says it is only inferred.
    EXPECT_NE(printed.text.find("control groups: at most 16 (inferred from info/L3/num_closids only; "
                                "info/MB/num_closids is missing or unreadable)"),
        std::string::npos)
        << printed.text;
}

TEST(ResctrlMissingInfo, EveryNumClosidsMissingLeavesTheGroupLimitUnknown)
{
    TempTree t("resctrl.full");
    std::filesystem::remove(t.root() + "/info/L3/num_closids");
    std::filesystem::remove(t.root() + "/info/MB/num_closids");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    ASSERT_TRUE(b);
    auto caps = (*b)->capabilities();
    ASSERT_TRUE(caps);
    EXPECT_EQ(caps->maxControlGroups, 0u); // unknown, not "at most 1" beside four existing groups
    EXPECT_NE(formatGroupLimits(*caps).find("control groups: at most unknown (no num_closids could be read"),
        std::string::npos)
        << formatGroupLimits(*caps);
}

TEST(ResctrlMissingInfo, NoMonDataInfersTheDomainCountAndWarnsThatNothingCanBeRead)
{
    TempTree t("resctrl.full");
    std::filesystem::remove_all(t.root() + "/mon_data");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    ASSERT_TRUE(b);
    auto caps = (*b)->capabilities();
    ASSERT_TRUE(caps);
    EXPECT_TRUE(caps->monitoring.domains.empty()); // nothing the sampler could read
    EXPECT_EQ(caps->monitoring.inferredDomains, (std::vector<int> { 0, 1, 2, 3 }));
    EXPECT_NE(formatGroupLimits(*caps).find("4 (inferred from the root schemata's L3 line; mon_data is missing, so no "
                                            "counter can be read) domains"),
        std::string::npos)
        << formatGroupLimits(*caps);
    const auto warnings = (*b)->warnings();
    EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(),
        [](const std::string& w) { return w.find("mon_data is missing") != std::string::npos; }));
}

TEST(ResctrlMissingInfo, ACompleteTreeMarksNothing)
{
    for (const char* tree : kAllTrees) {
        TempTree t(tree);
        auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
        ASSERT_TRUE(b) << tree;
        auto caps = (*b)->capabilities();
        ASSERT_TRUE(caps);
        for (const auto& r : caps->resources)
            for (const auto& e : r.origins.entries())
                // goresctrl's trees predate sparse_masks (Linux 6.7): its absence is the one expected mark.
                EXPECT_EQ(e.key, "sparse_masks") << tree << " " << r.name << ": " << e.why;
        EXPECT_TRUE(caps->origins.entries().empty()) << tree;
    }
}

TEST(ResctrlMissingInfo, AmdTreesWithoutSparseMasksInferThatAnyMaskIsAllowed)
{
    // Kernels before 6.7 have no sparse_masks file; on AMD they accepted any CBM all along.
    TempTree t("amd.bmec");
    std::filesystem::remove(t.root() + "/info/L3/sparse_masks");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    ASSERT_TRUE(b);
    auto caps = (*b)->capabilities();
    ASSERT_TRUE(caps);
    ASSERT_NE(caps->resource("L3"), nullptr);
    EXPECT_TRUE(caps->resource("L3")->sparseMasks);
    EXPECT_NE(formatResourceLines(*caps).find("sparse yes (non-contiguous masks allowed) (inferred from AMD's "
                                              "bandwidth resources"),
        std::string::npos)
        << formatResourceLines(*caps);
    // An Intel tree without the file stays unknown (and contiguous for the validator).
    TempTree intel("intel.snc");
    std::filesystem::remove(intel.root() + "/info/L3/sparse_masks");
    auto bi = ResctrlBackend::open(std::make_shared<PosixFs>(intel.root()));
    ASSERT_TRUE(bi);
    auto ci = (*bi)->capabilities();
    ASSERT_TRUE(ci);
    EXPECT_FALSE(ci->resource("L3")->sparseMasks);
    EXPECT_NE(formatResourceLines(*ci).find("sparse unknown (info/L3/sparse_masks is missing)"), std::string::npos);
}

TEST(ResctrlMissingInfo, SessionTextWritesUnknownAndReadsItBack)
{
    TempTree t("resctrl.full");
    std::filesystem::remove(t.root() + "/info/L3/num_closids");
    std::filesystem::remove(t.root() + "/info/L3/min_cbm_bits");
    std::filesystem::remove(t.root() + "/info/L3_MON/num_rmids");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    ASSERT_TRUE(b);
    auto caps = (*b)->capabilities();
    ASSERT_TRUE(caps);
    const auto text = formatCapabilitiesText(*caps);
    EXPECT_NE(text.find("L3: unknown CLOS, domains 0 1 2 3, cbm_mask 20 bits, min_cbm_bits unknown"), std::string::npos)
        << text;
    EXPECT_NE(text.find("L3_MON: unknown RMIDs"), std::string::npos) << text;
    const auto back = parseCapabilitiesText(text);
    ASSERT_EQ(back.size(), 2u); // L3 and MB: a line with unknown values is still read back
    EXPECT_EQ(back[0].caps.name, "L3");
    EXPECT_EQ(back[0].caps.cbmBits, 20u);
}
