// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Kubernetes labels for a resctrl group: which pod (and container) its tasks belong to, from /proc/PID/cgroup and
// the kubelet's cgroup naming, in both layouts the kubelet uses:
//   cgroupfs driver: /kubepods[/burstable|/besteffort]/pod<UID>/<CONTAINER-ID>
//   systemd driver:  /kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<UID_WITH_UNDERSCORES>.slice/
//                    cri-containerd-<CONTAINER-ID>.scope (also docker-, crio-)
// on cgroup v1 (one line per hierarchy) and v2 (the single "0::" line). The pod's name and namespace are not in
// the cgroup path: they come from the kubelet's pod directory (/var/lib/kubelet/pods/<UID>): the pod's hostname
// in etc-hosts and the service-account volume's namespace file; the container's name when the pod has one.

#include "Exposition.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdt::metrics {

struct PodCgroup {
    std::string podUid; ///< with dashes, as the API shows it
    std::string containerId; ///< "" for the pod's own cgroup (or a runtime's helper such as crio-conmon)
};

/// The pod and container of a process from the text of its /proc/PID/cgroup; none when it is not in a pod.
std::optional<PodCgroup> podFromCgroup(std::string_view procPidCgroup);
/// Where the pod's own directory ends in a cgroup path ("/kubepods/pod<UID>/<CONTAINER>" -> the offset after
/// "pod<UID>"); none when the path is not in a pod.
std::optional<std::size_t> podDirEnd(std::string_view cgroupPath);
/// The same from procRoot/PID/cgroup; none when the task is gone or not in a pod.
std::optional<PodCgroup> podOfTask(const std::string& procRoot, unsigned pid);

class KubernetesLabeller {
public:
    explicit KubernetesLabeller(std::string procRoot = "/proc", std::string kubeletRoot = "/var/lib/kubelet");

    /// Labels shared by the given tasks: namespace, pod and pod_uid when they all belong to one pod (names
    /// when the kubelet's pod directory has them), container when they are all in one container whose name is
    /// known. Empty when no task is in a pod, the tasks span pods or a task runs outside any pod (the default group
    /// of a node: one pod's tasks among the system's do not make it that pod's). A task gone meanwhile does not
    /// decide. Reads at most 64 tasks.
    Labels labelsFor(const std::vector<unsigned>& pids) const;

private:
    std::string m_procRoot;
    std::string m_kubeletRoot;
};

} // namespace rdt::metrics
