// SPDX-License-Identifier: GPL-3.0-or-later
// Corpus replay for fuzz targets when libFuzzer is not available (GCC builds): every input file, then
// `--mutations N` deterministic mutations of each (byte flips, inserted junk, truncations, u16/u32/u64 boundary
// values at random offsets). A crash, sanitizer report or hang fails the ctest run like it would under libFuzzer.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::uint8_t> slurp(const std::filesystem::path& p)
{
    std::ifstream f(p, std::ios::binary);
    return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

void mutate(std::vector<std::uint8_t>& b, std::mt19937_64& rng)
{
    if (b.empty()) {
        b.push_back(static_cast<std::uint8_t>(rng()));
        return;
    }
    auto at = [&]() { return static_cast<std::size_t>(rng() % b.size()); };
    switch (rng() % 6) {
    case 0: // flip a few bytes
        for (int i = 0; i < 1 + static_cast<int>(rng() % 8); ++i)
            b[at()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
        break;
    case 1: // truncate
        b.resize(at());
        break;
    case 2: { // boundary value
        static const std::uint64_t values[] = { 0, 1, 7, 8, 0xff, 0xffff, 0x10000, 0x7fffffff, 0xffffffff,
            0xffffffffffffffffull, 0x8000000000000000ull };
        const std::uint64_t v = values[rng() % (sizeof values / sizeof values[0])];
        const std::size_t width = std::size_t { 1 } << (1 + rng() % 3);
        const std::size_t pos = at();
        std::memcpy(b.data() + pos, &v, std::min(width, b.size() - pos));
        break;
    }
    case 3: { // insert junk
        const std::size_t pos = at();
        std::vector<std::uint8_t> junk(1 + rng() % 64);
        for (auto& j : junk)
            j = static_cast<std::uint8_t>(rng());
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(pos), junk.begin(), junk.end());
        break;
    }
    case 4: { // erase a range
        const std::size_t pos = at();
        b.erase(b.begin() + static_cast<std::ptrdiff_t>(pos),
            b.begin() + static_cast<std::ptrdiff_t>(std::min(b.size(), pos + 1 + rng() % 256)));
        break;
    }
    default: // duplicate a chunk (repeated records)
    {
        const std::size_t pos = at();
        const std::size_t len = std::min<std::size_t>(b.size() - pos, 1 + rng() % 512);
        std::vector<std::uint8_t> chunk(
            b.begin() + static_cast<std::ptrdiff_t>(pos), b.begin() + static_cast<std::ptrdiff_t>(pos + len));
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(pos), chunk.begin(), chunk.end());
        break;
    }
    }
}

} // namespace

int main(int argc, char** argv)
{
    long mutations = 0;
    std::vector<std::filesystem::path> inputs;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--mutations" && i + 1 < argc) {
            mutations = std::stol(argv[++i]);
        } else if (std::filesystem::is_directory(a)) {
            // A corpus directory that is empty or was never committed must fail the run, not pass it vacuously.
            std::size_t found = 0;
            for (const auto& e : std::filesystem::directory_iterator(a))
                if (e.is_regular_file()) {
                    inputs.push_back(e.path());
                    ++found;
                }
            if (found == 0) {
                std::fprintf(stderr, "corpus directory %s has no files\n", a.c_str());
                return 1;
            }
        } else if (std::filesystem::is_regular_file(a)) {
            inputs.emplace_back(a);
        } else {
            std::fprintf(stderr, "corpus input %s does not exist (or is not a file)\n", a.c_str());
            return 1;
        }
    }
    std::mt19937_64 rng(0x5eed);
    std::size_t runs = 0;
    for (const auto& p : inputs) {
        const auto original = slurp(p);
        LLVMFuzzerTestOneInput(original.data(), original.size());
        ++runs;
        for (long m = 0; m < mutations; ++m) {
            auto b = original;
            const int rounds = 1 + static_cast<int>(rng() % 3);
            for (int r = 0; r < rounds; ++r)
                mutate(b, rng);
            LLVMFuzzerTestOneInput(b.data(), b.size());
            ++runs;
        }
    }
    std::printf("replayed %zu inputs (%zu files, %ld mutations each)\n", runs, inputs.size(), mutations);
    return inputs.empty() ? 1 : 0;
}
