// SPDX-License-Identifier: GPL-3.0-or-later
#include "KubernetesLabels.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rdt::metrics {
namespace {

std::vector<std::string_view> split(std::string_view s, char sep)
{
    std::vector<std::string_view> out;
    while (true) {
        const auto pos = s.find(sep);
        out.push_back(s.substr(0, pos));
        if (pos == std::string_view::npos) return out;
        s.remove_prefix(pos + 1);
    }
}

bool isUidText(std::string_view s)
{
    return s.size() == 36 && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) || c == '-';
    });
}

/// "pod<UID>" (cgroupfs) or "kubepods[-QOS]-pod<UID_>.slice" (systemd) -> the UID with dashes.
std::optional<std::string> podUidOf(std::string_view component)
{
    std::string uid;
    if (component.rfind("pod", 0) == 0) {
        uid = std::string(component.substr(3));
    } else if (component.rfind("kubepods", 0) == 0 && component.size() > 6
        && component.substr(component.size() - 6) == ".slice") {
        const auto pos = component.rfind("-pod");
        if (pos == std::string_view::npos) return std::nullopt;
        uid = std::string(component.substr(pos + 4, component.size() - 6 - pos - 4));
        std::replace(uid.begin(), uid.end(), '_', '-');
    } else {
        return std::nullopt;
    }
    if (!isUidText(uid)) return std::nullopt;
    return uid;
}

/// "<64 hex>" or "cri-containerd-<id>.scope", "docker-<id>.scope", "crio-<id>.scope" -> the id.
std::string containerIdOf(std::string_view component)
{
    if (component.size() > 6 && component.substr(component.size() - 6) == ".scope") {
        component.remove_suffix(6);
        for (std::string_view prefix : { "cri-containerd-", "docker-", "crio-", "containerd-" })
            if (component.rfind(prefix, 0) == 0) {
                component.remove_prefix(prefix.size());
                break;
            }
    }
    const bool hex = component.size() >= 12 && std::all_of(component.begin(), component.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c));
    });
    return hex ? std::string(component) : std::string {};
}

std::string readFile(const std::filesystem::path& path, std::size_t limit = 65536)
{
    std::ifstream in(path);
    std::string text(limit, '\0');
    in.read(text.data(), static_cast<std::streamsize>(limit));
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text;
}

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\t'))
        s.pop_back();
    return s;
}

/// The pod's name: the hostname the kubelet wrote last in the pod's etc-hosts ("IP<TAB>NAME").
std::string podName(const std::filesystem::path& podDir)
{
    std::istringstream lines(readFile(podDir / "etc-hosts"));
    std::string name;
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream words(line);
        std::string ip, host;
        if (words >> ip >> host && host != "localhost" && host.find("ip6-") != 0) name = host;
    }
    return name;
}

/// The pod's namespace from its service-account token volume (kube-api-access-*/namespace).
std::string podNamespace(const std::filesystem::path& podDir)
{
    std::error_code ec;
    const auto projected = podDir / "volumes" / "kubernetes.io~projected";
    for (const auto& entry : std::filesystem::directory_iterator(projected, ec)) {
        const std::string ns = trimmed(readFile(entry.path() / "namespace", 256));
        if (!ns.empty()) return ns;
    }
    return {};
}

/// The container's name when the pod directory lists exactly one container.
std::string onlyContainerName(const std::filesystem::path& podDir)
{
    std::error_code ec;
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(podDir / "containers", ec))
        if (entry.is_directory(ec)) names.push_back(entry.path().filename().string());
    return names.size() == 1 ? names.front() : std::string {};
}

} // namespace

std::optional<PodCgroup> podFromCgroup(std::string_view text)
{
    std::optional<PodCgroup> found;
    for (auto line : split(text, '\n')) {
        // "ID:CONTROLLERS:PATH"; the path may itself contain ':'.
        const auto first = line.find(':');
        const auto second = first == std::string_view::npos ? first : line.find(':', first + 1);
        if (second == std::string_view::npos) continue;
        const auto parts = split(line.substr(second + 1), '/');
        for (std::size_t i = 0; i < parts.size(); ++i) {
            auto uid = podUidOf(parts[i]);
            if (!uid) continue;
            PodCgroup pod { *uid, i + 1 < parts.size() ? containerIdOf(parts[i + 1]) : std::string {} };
            if (!found || (found->containerId.empty() && !pod.containerId.empty())) found = pod;
            break;
        }
    }
    return found;
}

std::optional<std::size_t> podDirEnd(std::string_view path)
{
    for (std::size_t at = 0; at <= path.size();) {
        const auto end = std::min(path.find('/', at), path.size());
        if (podUidOf(path.substr(at, end - at))) return end;
        at = end + 1;
    }
    return std::nullopt;
}

std::optional<PodCgroup> podOfTask(const std::string& procRoot, unsigned pid)
{
    return podFromCgroup(readFile(procRoot + "/" + std::to_string(pid) + "/cgroup"));
}

KubernetesLabeller::KubernetesLabeller(std::string procRoot, std::string kubeletRoot)
    : m_procRoot(std::move(procRoot))
    , m_kubeletRoot(std::move(kubeletRoot))
{ }

Labels KubernetesLabeller::labelsFor(const std::vector<unsigned>& pids) const
{
    std::optional<PodCgroup> shared;
    bool oneContainer = true;
    const std::size_t n = std::min<std::size_t>(pids.size(), 64);
    for (std::size_t i = 0; i < n; ++i) {
        const std::string text = readFile(m_procRoot + "/" + std::to_string(pids[i]) + "/cgroup");
        if (text.empty()) continue; // gone meanwhile: does not decide
        auto pod = podFromCgroup(text);
        if (!pod) return {}; // a task outside pods: the group is not (only) a pod's
        if (!shared) {
            shared = pod;
        } else if (shared->podUid != pod->podUid) {
            return {}; // tasks of several pods: no pod label would be true
        } else if (shared->containerId != pod->containerId) {
            oneContainer = false;
        }
    }
    if (!shared) return {};
    const std::filesystem::path podDir = std::filesystem::path(m_kubeletRoot) / "pods" / shared->podUid;
    Labels labels;
    if (auto ns = podNamespace(podDir); !ns.empty()) labels.emplace_back("namespace", ns);
    if (auto name = podName(podDir); !name.empty()) labels.emplace_back("pod", name);
    labels.emplace_back("pod_uid", shared->podUid);
    if (oneContainer && !shared->containerId.empty())
        if (auto container = onlyContainerName(podDir); !container.empty()) labels.emplace_back("container", container);
    return labels;
}

} // namespace rdt::metrics
