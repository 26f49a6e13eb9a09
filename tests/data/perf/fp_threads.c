// Two threads with distinct call chains, built with frame pointers for `perf record -g` (tests/data/perf/README.md).
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

static volatile uint64_t sink;

__attribute__((noinline)) static void leaf_mix(uint64_t n)
{
    uint64_t x = n;
    for (int i = 0; i < 4000; ++i)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    sink += x;
}
__attribute__((noinline)) static void leaf_sum(uint64_t n)
{
    uint64_t s = 0;
    for (uint64_t i = 0; i < 3000; ++i)
        s += i ^ n;
    sink += s;
}
__attribute__((noinline)) static void middle_a(uint64_t n)
{
    leaf_mix(n);
    leaf_sum(n);
}
__attribute__((noinline)) static void middle_b(uint64_t n)
{
    leaf_mix(n);
}
__attribute__((noinline)) static void *worker_a(void *arg)
{
    (void)arg;
    for (uint64_t i = 0; i < 60000; ++i)
        middle_a(i);
    return 0;
}
__attribute__((noinline)) static void *worker_b(void *arg)
{
    (void)arg;
    for (uint64_t i = 0; i < 60000; ++i)
        middle_b(i);
    return 0;
}
int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, worker_a, 0);
    pthread_create(&b, 0, worker_b, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    printf("%llu\n", (unsigned long long)sink);
    return 0;
}
