// SPDX-License-Identifier: GPL-3.0-or-later
// RecordInput over ReadAhead: records of every size cut at every chunk edge come out whole and in order, from a
// file (read ahead on a thread) and from a pipe (short reads gathered).
#include "perfdata/RecordInput.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <thread>
#include <unistd.h>

using namespace rdt::perfdata;

namespace {

/// Records {u32 seq; u16 size; bytes = seq} of sizes cycling through 8..65535, `total` bytes or a little more.
std::vector<std::byte> makeRecords(std::size_t total)
{
    std::vector<std::byte> out;
    std::uint32_t seq = 0;
    std::size_t size = 8;
    while (out.size() < total) {
        const auto at = out.size();
        out.resize(at + size, static_cast<std::byte>(seq & 0xff));
        std::memcpy(out.data() + at, &seq, 4);
        const auto s16 = static_cast<std::uint16_t>(size);
        std::memcpy(out.data() + at + 4, &s16, 2);
        ++seq;
        size = size * 7 % 65521 + 8; // sizes all over, some larger than a pipe's 64 KiB read
    }
    return out;
}

/// Walks `in` as RecordReader does; the number of records, checking each one's bytes.
std::uint32_t walk(RecordInput& in)
{
    std::uint32_t seq = 0;
    while (in.ensure(6)) {
        std::uint32_t s = 0;
        std::uint16_t size = 0;
        std::memcpy(&s, in.data(), 4);
        std::memcpy(&size, in.data() + 4, 2);
        EXPECT_EQ(s, seq);
        if (!in.ensure(size)) {
            ADD_FAILURE() << "record " << seq << " cut short";
            break;
        }
        for (std::size_t i = 6; i < size; ++i)
            if (in.data()[i] != static_cast<std::byte>(seq & 0xff)) {
                ADD_FAILURE() << "record " << seq << " byte " << i;
                break;
            }
        in.consume(size);
        ++seq;
    }
    return seq;
}

std::uint32_t count(const std::vector<std::byte>& bytes)
{
    RecordInput in { std::span<const std::byte>(bytes) };
    return walk(in);
}

} // namespace

TEST(RecordInput, FileReadAheadKeepsEveryRecordWholeAcrossChunkEdges)
{
    const auto bytes = makeRecords(8 * ReadAhead::Chunks * ReadAhead::ChunkBytes);
    const auto path = std::filesystem::temp_directory_path() / ("rdtscope-record-input-" + std::to_string(getpid()));
    {
        FILE* f = std::fopen(path.c_str(), "wb");
        ASSERT_NE(f, nullptr);
        ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
        std::fclose(f);
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    const std::uint32_t expected = count(bytes);
    EXPECT_GT(expected, 100u);
    {
        RecordInput in(ReadAhead::file(fd, 0, bytes.size()));
        EXPECT_EQ(walk(in), expected);
    }
    {
        // Stopping early (a cancelled import) ends the reading thread without a hang.
        RecordInput in(ReadAhead::file(fd, 0, bytes.size()));
        ASSERT_TRUE(in.ensure(6));
        EXPECT_EQ(in.skip(100), 100u);
    }
    {
        RecordInput in(ReadAhead::file(fd, 0, bytes.size()));
        EXPECT_EQ(in.skip(bytes.size() + 10), bytes.size()); // skipping past the end stops at it
        EXPECT_FALSE(in.ensure(1));
    }
    ::close(fd);
    std::filesystem::remove(path);
}

TEST(RecordInput, PipeShortReadsAreGathered)
{
    const auto bytes = makeRecords(3u << 20);
    int p[2];
    ASSERT_EQ(::pipe(p), 0);
    std::thread writer([&] { // writes in odd pieces so that reads come back short and cut records anywhere
        std::size_t at = 0, piece = 1;
        while (at < bytes.size()) {
            const std::size_t n = std::min(piece, bytes.size() - at);
            const ssize_t w = ::write(p[1], bytes.data() + at, n);
            if (w <= 0) break;
            at += static_cast<std::size_t>(w);
            piece = piece * 5 % 100003 + 1;
        }
        ::close(p[1]);
    });
    {
        RecordInput in(ReadAhead::stream(p[0]));
        EXPECT_EQ(walk(in), count(bytes));
    }
    writer.join();
    ::close(p[0]);
}
