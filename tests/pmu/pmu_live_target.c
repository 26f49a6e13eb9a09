/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The child the live PMU test samples: known function names, frame pointers, DWARF (-g). It spins in
 * rdtscope_live_inner, called from rdtscope_live_outer, called from main, for argv[1] seconds (default 1). */
#include <stdlib.h>
#include <time.h>

volatile unsigned long rdtscope_live_sink;

/* GCC 12 sets up no frame in a leaf function even with -fno-omit-frame-pointer, and the kernel's frame-pointer
 * walk would then skip its caller; calling this makes rdtscope_live_inner a non-leaf with a real frame. */
__attribute__((noinline, noipa)) unsigned long rdtscope_live_publish(unsigned long x)
{
    rdtscope_live_sink ^= x;
    return x;
}

__attribute__((noinline, noipa)) unsigned long rdtscope_live_inner(unsigned long n)
{
    unsigned long x = 0;
    for (unsigned long i = 0; i < n; i++)
        x += (i * i) ^ (x >> 3);
    return rdtscope_live_publish(x);
}

__attribute__((noinline, noipa)) unsigned long rdtscope_live_outer(unsigned long n)
{
    unsigned long s = 0;
    for (int k = 0; k < 100; k++)
        s += rdtscope_live_inner(n + (unsigned long)k);
    return s;
}

int main(int argc, char** argv)
{
    const double secs = argc > 1 ? atof(argv[1]) : 1.0;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        rdtscope_live_sink += rdtscope_live_outer(10000);
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
    return 0;
}
