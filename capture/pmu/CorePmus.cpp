// SPDX-License-Identifier: GPL-3.0-or-later
#include "CorePmus.h"

#include "core/IdList.h"

namespace rdt::pmu {

namespace {

std::string cpuListText(const std::vector<int>& cpus)
{
    std::vector<unsigned> list;
    for (int c : cpus)
        list.push_back(static_cast<unsigned>(c));
    return cpus.empty() ? std::string("none") : formatIdList(list);
}

} // namespace

TmaModel eCoreGeneration(int family, int model)
{
    if (family != 6) return TmaModel::None;
    switch (model) {
    case 0x97: // ALDERLAKE
    case 0x9A: // ALDERLAKE_L
    case 0xB7: // RAPTORLAKE
    case 0xBA: // RAPTORLAKE_P
    case 0xBF: // RAPTORLAKE_S
        return TmaModel::Gracemont;
    case 0xAA: // METEORLAKE_L
    case 0xAC: // METEORLAKE
    case 0xB5: // perf's mapfile.csv: GenuineIntel-6-(AA|AC|B5),...,meteorlake
        return TmaModel::Crestmont;
    default:
        return TmaModel::None;
    }
}

std::vector<CorePmuPart> hybridParts(const PerfEnvironment& env, const EventEncoder* pCore)
{
    std::vector<CorePmuPart> parts;
    for (const HybridPmu& pmu : env.hybridPmus()) {
        if (pmu.name == "cpu_core") {
            const bool libpfmKnows = pCore && pCore->model().tma != TmaModel::None && !pCore->model().atom;
            PmuModel glc = modelForPfmName("adl_glc", "Intel hybrid P-core (Golden Cove class)");
            // The kernel's Meteor Lake PMU has mem-loads without mem-loads-aux (mtl_hybrid_mem_attrs) [kcore].
            if (eCoreGeneration(env.cpuFamily, env.cpuModel) == TmaModel::Crestmont) glc.memLoadsAux = false;
            EventEncoder base = libpfmKnows ? *pCore : EventEncoder::forModel(std::move(glc));
            parts.push_back({ pmu.name, "P-cores (cpu_core)", pmu.cpus, pmu.type, base.forPmu(pmu.name, pmu.type) });
        } else {
            const TmaModel gen = eCoreGeneration(env.cpuFamily, env.cpuModel);
            PmuModel m = gen == TmaModel::Crestmont
                ? modelForPfmName("mtl_cmt", "Intel hybrid E-core (Crestmont)")
                : modelForPfmName("adl_grt", "Intel hybrid E-core (Gracemont class)");
            if (gen == TmaModel::None) {
                m.tma = TmaModel::None;
                m.tmaUnavailable = "rdtscope knows the E-core TMA events and slot width only for Gracemont (Alder "
                                   "Lake, Raptor Lake) and Crestmont (Meteor Lake), from perf's alderlake and "
                                   "meteorlake JSON; this CPU is family "
                    + std::to_string(env.cpuFamily) + " model " + std::to_string(env.cpuModel);
            }
            parts.push_back({ pmu.name, "E-cores (cpu_atom)", pmu.cpus, pmu.type,
                EventEncoder::forModel(std::move(m)).forPmu(pmu.name, pmu.type) });
        }
    }
    return parts;
}

Result<std::vector<CorePmuPart>> corePmuParts(const PerfEnvironment& env)
{
    if (env.hasCpuCorePmu || env.hasCpuAtomPmu) {
        // libpfm4 4.13 has no hybrid tables, so it usually finds no core PMU here; newer ones may know adl_glc.
        auto enc = EventEncoder::create(env.cpuCoreType);
        return hybridParts(env, enc ? &enc.value() : nullptr);
    }
    auto enc = EventEncoder::create();
    if (!enc) return enc.error();
    std::vector<CorePmuPart> parts;
    parts.push_back({ {}, {}, {}, 0, std::move(enc.value()) });
    return parts;
}

Result<PartRecipes> recipesForParts(const std::vector<CorePmuPart>& parts, RecipeKind kind, const RecipeOptions& opt)
{
    if (parts.empty()) return makeError("no core PMU to build recipes for");
    PartRecipes out;
    Error first;
    bool haveFirst = false;
    for (const CorePmuPart& p : parts) {
        Result<Recipe> r = kind == RecipeKind::Tma ? tmaRecipe(p.encoder, opt)
            : kind == RecipeKind::LoadLatency
            ? loadLatencyRecipe(p.encoder, opt)
            : lbrRecipe(p.encoder, kind == RecipeKind::LbrCallStack ? LbrMode::CallStack : LbrMode::AnyBranch, opt);
        if (!r) {
            if (!haveFirst) {
                first = r.error();
                haveFirst = true;
            }
            if (!p.label.empty())
                out.notes.push_back(p.label + " left out: " + r.error().message
                    + (r.error().advice.empty() ? std::string() : " (" + r.error().advice + ")"));
            continue;
        }
        r->pmuName = p.pmuName;
        r->pmuLabel = p.label;
        r->cpus = p.cpus;
        out.recipes.push_back(std::move(r.value()));
    }
    if (out.recipes.empty()) return first;
    return out;
}

std::string describeParts(const std::vector<CorePmuPart>& parts)
{
    std::string out;
    for (const CorePmuPart& p : parts) {
        if (!out.empty()) out += ", ";
        if (p.pmuName.empty()) {
            out += p.encoder.model().pfmName.empty() ? std::string("no Intel core PMU") : p.encoder.model().pfmName;
            continue;
        }
        out += p.pmuName + " (type " + std::to_string(p.type) + ", CPUs " + cpuListText(p.cpus) + ", "
            + p.encoder.model().description + ")";
    }
    return out;
}

} // namespace rdt::pmu
