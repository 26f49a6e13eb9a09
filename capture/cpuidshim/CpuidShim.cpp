// SPDX-License-Identifier: GPL-3.0-or-later
// CPUID of the simulated processor for unmodified programs inside `rdtscope-cli sim --namespace`
// (docs/RESCTRL.md "The simulated machine as a mount"). Tools such as pqos build their CPU topology from CPUID
// leaves 0BH and 04H (SDM Vol. 2A, CPUID) before they read resctrl; a virtual machine that hides those leaves
// stops them there. Linux can make CPUID fault (arch_prctl ARCH_SET_CPUID) only where the CPU supports CPUID
// faulting, which virtual machines rarely do, so this library, preloaded, rewrites the program's cpuid helper
// instead: in every loaded object it finds the sequence `mov %edi,%eax; mov %esi,%ecx; cpuid` (a function
// cpuid(leaf, subleaf, out) as compilers emit it), replaces the 2-byte cpuid with the 2-byte ud2, and answers the
// resulting SIGILL from the table in RDTSCOPE_SIM_CPUID ("leaf.subleaf=eax,ebx,ecx,edx;" in hex), with the x2APIC
// ID of the CPU the thread runs on. Nothing else of the program changes; a ud2 it did not place is left to crash.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <link.h>
#include <sched.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

namespace {

struct Leaf {
    std::uint32_t leaf, subleaf, regs[4];
};
constexpr int kMaxLeaves = 512;
constexpr int kMaxSites = 64;
Leaf g_leaves[kMaxLeaves];
int g_leafCount = 0;
std::uintptr_t g_sites[kMaxSites];
int g_siteCount = 0;
unsigned g_smtShift = 0; ///< leaf 0BH subleaf 0 EAX[4:0]: x2APIC ID bits per core

const unsigned char kPattern[] = { 0x89, 0xf8, 0x89, 0xf1, 0x0f, 0xa2 };

bool parseTable(const char* text)
{
    while (text && *text && g_leafCount < kMaxLeaves) {
        Leaf l {};
        int used = 0;
        if (std::sscanf(text, "%x.%x=%x,%x,%x,%x;%n", &l.leaf, &l.subleaf, &l.regs[0], &l.regs[1], &l.regs[2],
                &l.regs[3], &used)
                != 6
            || used == 0)
            return false;
        g_leaves[g_leafCount++] = l;
        text += used;
    }
    return g_leafCount > 0;
}

const Leaf* find(std::uint32_t leaf, std::uint32_t subleaf)
{
    for (int i = 0; i < g_leafCount; ++i)
        if (g_leaves[i].leaf == leaf && g_leaves[i].subleaf == subleaf) return &g_leaves[i];
    return nullptr;
}

void onSigill(int, siginfo_t*, void* context)
{
    auto* uc = static_cast<ucontext_t*>(context);
    greg_t* g = uc->uc_mcontext.gregs;
    const auto rip = static_cast<std::uintptr_t>(g[REG_RIP]);
    bool ours = false;
    for (int i = 0; i < g_siteCount; ++i)
        ours |= g_sites[i] == rip;
    if (!ours) { // not a patched site: the program's own fault, delivered as it would have been
        signal(SIGILL, SIG_DFL);
        return;
    }
    const auto leaf = static_cast<std::uint32_t>(g[REG_RAX]);
    const auto subleaf = static_cast<std::uint32_t>(g[REG_RCX]);
    std::uint32_t r[4] = { 0, 0, 0, 0 };
    // A (leaf, subleaf) the table lacks reads as zeros, which ends an enumeration as on hardware.
    if (const Leaf* l = find(leaf, subleaf)) std::memcpy(r, l->regs, sizeof r);
    const int cpu = sched_getcpu();
    const std::uint32_t apic = cpu < 0 ? 0 : static_cast<std::uint32_t>(cpu) << g_smtShift;
    if (leaf == 1) r[1] = (r[1] & 0x00ffffffu) | ((apic & 0xffu) << 24); // EBX[31:24] initial APIC ID
    if (leaf == 0x0b || leaf == 0x1f) r[3] = apic; // EDX: x2APIC ID
    g[REG_RAX] = static_cast<greg_t>(r[0]);
    g[REG_RBX] = static_cast<greg_t>(r[1]);
    g[REG_RCX] = static_cast<greg_t>(r[2]);
    g[REG_RDX] = static_cast<greg_t>(r[3]);
    g[REG_RIP] = static_cast<greg_t>(rip + 2);
}

int patchObject(dl_phdr_info* info, std::size_t, void* memFd)
{
    const int fd = *static_cast<int*>(memFd);
    // The dynamic loader and the vDSO keep their own CPUID: they ran before this library and serve the host.
    if (info->dlpi_name && (std::strstr(info->dlpi_name, "ld-linux") || std::strstr(info->dlpi_name, "vdso"))) return 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
        const auto* base = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
        for (std::size_t at = 0; at + sizeof kPattern <= ph.p_memsz && g_siteCount < kMaxSites; ++at) {
            if (std::memcmp(base + at, kPattern, sizeof kPattern) != 0) continue;
            const auto site = reinterpret_cast<std::uintptr_t>(base + at + 4);
            const unsigned char ud2[] = { 0x0f, 0x0b };
            // /proc/self/mem writes through the page protection, so the text never becomes writable.
            if (pwrite(fd, ud2, sizeof ud2, static_cast<off_t>(site)) == static_cast<ssize_t>(sizeof ud2))
                g_sites[g_siteCount++] = site;
        }
    }
    return 0;
}

__attribute__((constructor)) void installCpuidShim()
{
    if (!parseTable(std::getenv("RDTSCOPE_SIM_CPUID"))) return;
    if (const Leaf* b = find(0x0b, 0); b && ((b->regs[2] >> 8) & 0xff) == 1) g_smtShift = b->regs[0] & 0x1f;
    struct sigaction sa { };
    sa.sa_sigaction = onSigill;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGILL, &sa, nullptr) != 0) return;
    int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
    if (fd < 0) return;
    dl_iterate_phdr(patchObject, &fd);
    close(fd);
    if (std::getenv("RDTSCOPE_SIM_CPUID_VERBOSE"))
        std::fprintf(stderr, "rdtscope cpuid shim: %d leaves, %d cpuid site(s) answered by the simulated CPU\n",
            g_leafCount, g_siteCount);
}

} // namespace
