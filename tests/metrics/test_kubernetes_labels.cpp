// SPDX-License-Identifier: GPL-3.0-or-later
// Kubernetes labels from fixture /proc trees and kubelet pod directories (tests/data/kubernetes): cgroup v1 with
// the cgroupfs driver, cgroup v2 with the systemd driver.
#include "metrics/KubernetesLabels.h"

#include <gtest/gtest.h>

using namespace rdt::metrics;

namespace {
const std::string kData = std::string(RDTSCOPE_TEST_DATA) + "/kubernetes/";
const std::string kRedisUid = "0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b";
const std::string kTrainerUid = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const std::string kContainer = "3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d";
}

TEST(KubernetesLabels, ParsesBothKubeletLayoutsOnBothCgroupVersions)
{
    auto v1 = podFromCgroup("12:memory:/kubepods/burstable/pod" + kRedisUid + "/" + kContainer + "\n"
        + "1:name=systemd:/kubepods/burstable/pod" + kRedisUid + "/" + kContainer + "\n");
    ASSERT_TRUE(v1);
    EXPECT_EQ(v1->podUid, kRedisUid);
    EXPECT_EQ(v1->containerId, kContainer);
    auto guaranteed = podFromCgroup("4:pids:/kubepods/pod" + kRedisUid + "\n");
    ASSERT_TRUE(guaranteed);
    EXPECT_EQ(guaranteed->containerId, "");
    auto v2 = podFromCgroup("0::/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod9a8b7c6d_5e4f_4a3b_"
                            "8c2d_1e0f9a8b7c6d.slice/docker-"
        + kContainer + ".scope\n");
    ASSERT_TRUE(v2);
    EXPECT_EQ(v2->podUid, kTrainerUid);
    EXPECT_EQ(v2->containerId, kContainer);
    auto crio = podFromCgroup("0::/kubepods.slice/kubepods-pod0f1e2d3c_4b5a_6978_8a9b_0c1d2e3f4a5b.slice/crio-conmon-"
        + kContainer + ".scope\n");
    ASSERT_TRUE(crio);
    EXPECT_EQ(crio->containerId, ""); // the runtime's monitor process is not the container
    EXPECT_FALSE(podFromCgroup("0::/system.slice/sshd.service\n"));
    EXPECT_FALSE(podFromCgroup("0::/kubepods.slice/kubepods-podnotauid.slice\n"));
    EXPECT_FALSE(podFromCgroup("garbage without colons\n\n::\n"));
}

TEST(KubernetesLabels, CgroupV1CgroupfsPodWithOneContainer)
{
    KubernetesLabeller labeller(kData + "v1-cgroupfs/proc", kData + "v1-cgroupfs/kubelet");
    const Labels expected { { "namespace", "cache" }, { "pod", "redis-7d9f8b6c5-q2x4z" }, { "pod_uid", kRedisUid },
        { "container", "redis" } };
    EXPECT_EQ(labeller.labelsFor({ 101, 102 }), expected);
    EXPECT_EQ(labeller.labelsFor({ 200, 101 }), Labels {}); // with a task outside pods the group is not the pod's
    EXPECT_EQ(labeller.labelsFor({ 99999, 101 }), expected); // a task gone meanwhile does not decide
    EXPECT_EQ(labeller.labelsFor({ 200 }), Labels {});
    EXPECT_EQ(labeller.labelsFor({ 99999 }), Labels {}); // gone
}

TEST(KubernetesLabels, CgroupV2SystemdPodWithTwoContainers)
{
    KubernetesLabeller labeller(kData + "v2-systemd/proc", kData + "v2-systemd/kubelet");
    // One task: the pod is known, but with two containers in the pod directory the name cannot be told.
    const Labels pod { { "namespace", "ml-batch" }, { "pod", "trainer-0" }, { "pod_uid", kTrainerUid } };
    EXPECT_EQ(labeller.labelsFor({ 301 }), pod);
    EXPECT_EQ(labeller.labelsFor({ 301, 302 }), pod);
    // Tasks of two pods: no pod label would be true.
    EXPECT_EQ(labeller.labelsFor({ 301, 303 }), Labels {});
    // A pod whose kubelet directory is not there: only its UID.
    EXPECT_EQ(labeller.labelsFor({ 303 }), (Labels { { "pod_uid", kRedisUid } }));
}
