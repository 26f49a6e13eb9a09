// SPDX-License-Identifier: GPL-3.0-or-later
#include "Lab.h"

#include "ScenarioVariant.h"
#include "engine/CaptureService.h"
#include "engine/ScenarioText.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <unistd.h>

namespace rdt::protect {

namespace {

/// The scenario's `duration` line in nanoseconds; 0 when it has none.
std::uint64_t durationOf(const std::string& text)
{
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string key, value;
        words >> key >> value;
        if (key != "duration") continue;
        char* end = nullptr;
        const double v = std::strtod(value.c_str(), &end);
        const std::string unit(end);
        const double s = unit == "s" ? v : unit == "m" ? v * 60 : unit == "ms" ? v / 1e3 : 0;
        return static_cast<std::uint64_t>(s * 1e9);
    }
    return 0;
}

/// A temporary scenario file, removed when it goes.
class TempScenario {
public:
    explicit TempScenario(const std::string& text)
    {
        char path[] = "/tmp/rdtscope-protect-XXXXXX.scn";
        const int fd = ::mkstemps(path, 4);
        if (fd < 0) return;
        const auto n = ::write(fd, text.data(), text.size());
        ::close(fd);
        if (n == static_cast<ssize_t>(text.size()))
            m_path = path;
        else
            ::unlink(path);
    }
    ~TempScenario()
    {
        if (!m_path.empty()) ::unlink(m_path.c_str());
    }
    TempScenario(const TempScenario&) = delete;
    TempScenario& operator=(const TempScenario&) = delete;
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

} // namespace

Result<LabResult> runLab(const LabSettings& s)
{
    auto text = engine::scenarioText(s.scenario);
    if (!text) return text.error();
    auto defaults = protectDefaultsOf(*text);
    if (!defaults) return defaults.error();
    LabResult lab;
    lab.scenario = s.scenario;
    lab.seed = s.seed;
    lab.group = s.group.empty() ? defaults->group : s.group;
    lab.target = s.target.empty() ? defaults->target : s.target;
    if (lab.group.empty() || lab.target.empty())
        return errnoError(EINVAL, "scenario '" + s.scenario + "' names no protected group or target",
            "give --group and --target, or a '# protect: group=G target=T' line in the scenario");
    auto target = parseTarget(lab.target, false);
    if (!target) return target.error();
    lab.durationNs = s.durationNs ? s.durationNs : durationOf(*text);
    if (lab.durationNs == 0)
        return errnoError(EINVAL, "scenario '" + s.scenario + "' runs until stopped", "give --duration S");
    const std::vector<std::string> be = s.be.empty() ? defaults->be : s.be;
    const TempScenario file(seededVariant(*text, s.seed));
    if (file.path().empty())
        return errnoError(EIO, "could not write the seeded scenario into /tmp", "check that /tmp is writable");
    for (const auto& policy : s.policies) {
        if (auto p = makePolicy(policy, s.tuning); !p) return p.error();
    }
    for (const auto& policy : s.policies) {
        if (s.onPolicyStart) s.onPolicyStart(policy);
        engine::ServiceOptions options;
        options.rdt.spec = "sim";
        options.rdt.scenario = file.path();
        options.who = "protect lab";
        auto service = engine::CaptureService::open(options);
        if (!service) return service.error();
        ProtectSettings ps;
        ps.lcGroup = lab.group;
        ps.beGroups = be;
        ps.target = *target;
        ps.policy = policy;
        ps.tuning = s.tuning;
        ps.intervalNs = s.intervalNs;
        ps.durationNs = lab.durationNs;
        ProtectHooks hooks;
        hooks.stopRequested = s.stopRequested;
        auto run = runProtect(**service, ps, hooks);
        if (!run) return run.error();
        lab.figures.push_back(figuresOf(*run));
        lab.runs.push_back(std::move(*run));
        if (lab.runs.back().stopped) {
            lab.stopped = true;
            break;
        }
    }
    return lab;
}

} // namespace rdt::protect
