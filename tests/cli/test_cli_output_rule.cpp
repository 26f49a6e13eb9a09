// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #44: one rule for every `-o` (core/OutputTarget.h), run through rdtscope-cli over every writer and every
// kind of target. A refused target is left byte-identical (a FIFO stays a FIFO and nothing blocks on it), an
// allowed one is replaced only when the command completed, and nothing is left beside it.
#include "CliRun.h"
#include "session/Sqlite.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

std::string readAll(const std::string& p)
{
    std::ifstream in(p, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

/// One command that writes a file: its arguments for a target, whether it offers --force, and a file of the
/// kind it writes (which --force may replace).
struct Writer {
    const char* name;
    std::function<std::string(const std::string& target, bool force)> args;
    bool hasForce;
    std::string ownKind; ///< path of a file of its kind ("" = the command has no --force)
    std::string input; ///< a file the command reads ("" = none)
};

class OutputRuleCli : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        char tmpl[] = "/tmp/rdtscope-orule-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        s_dir = tmpl;
        const auto x = p("x.rdts"), y = p("y.rdts");
        for (const auto& s : { x, y }) {
            const CliRun r = runCli("record -o " + s + " --source sim --duration 1", 60);
            ASSERT_EQ(r.exitCode, 0) << r.output;
        }
        fs::copy_file(std::string(RDTSCOPE_TEST_DATA) + "/perf/cpu-clock-zstd.perfdata", p("p.data"));
        ASSERT_EQ(runCli("export " + x + " --csv -o " + p("own.csv")).exitCode, 0);
        ASSERT_EQ(runCli("export " + x + " --json -o " + p("own.json")).exitCode, 0);
        ASSERT_EQ(runCli("diff " + x + " " + y + " -o " + p("own.diff")).exitCode, 0);
        ASSERT_EQ(runCli("diff " + x + " " + y + " --csv -o " + p("own-diff.csv")).exitCode, 0);
        fs::copy_file(x, p("own.rdts"));
        ASSERT_EQ(runCli("info --save-cpuid " + p("own.cpuid.json")).exitCode, 0);
        {
            // A foreign SQLite database: --force replaces only rdtscope sessions.
            auto db = rdt::session::Database::open(p("foreign.db"), rdt::session::Database::Mode::Create);
            ASSERT_TRUE(db.ok());
            ASSERT_TRUE(db->exec("CREATE TABLE accounts(name TEXT); INSERT INTO accounts VALUES ('alice');").ok());
        }
        std::ofstream(p("notes.txt")) << "my notes\n";
    }
    static void TearDownTestSuite() { fs::remove_all(s_dir); }
    static std::string p(const char* name) { return (s_dir / name).string(); }
    static fs::path s_dir;
};

fs::path OutputRuleCli::s_dir;

/// Files beside the targets that a writer left behind (temporary names).
std::vector<std::string> leftovers(const fs::path& dir)
{
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) {
        const auto n = e.path().filename().string();
        if (n.find(".tmp-") != std::string::npos || n.find(".new-") != std::string::npos) out.push_back(n);
    }
    return out;
}

} // namespace

TEST_F(OutputRuleCli, EveryWriterOverEveryKindOfTarget)
{
    const std::string x = p("x.rdts"), y = p("y.rdts"), perf = p("p.data");
    const std::string sim = " --source sim";
    const Writer writers[] = {
        { "record",
            [&](const std::string& t, bool f) {
                return "record -o '" + t + "'" + (f ? " --force" : "") + sim + " --duration 1";
            },
            true, p("own.rdts"), "" },
        { "import",
            [&](const std::string& t, bool f) { return "import " + perf + " -o '" + t + "'" + (f ? " --force" : ""); },
            true, p("own.rdts"), perf },
        { "sweep --record",
            [&](const std::string& t, bool f) {
                return "sweep ways --group victim" + sim + " --settle 0.1 --measure 0.1 --record '" + t + "'"
                    + (f ? " --force" : "");
            },
            true, "", "" },
        { "advise --record",
            [&](const std::string& t, bool f) {
                return "advise --groups victim,streamer" + sim + " --record '" + t + "'" + (f ? " --force" : "");
            },
            true, "", "" },
        { "export --csv",
            [&](const std::string& t, bool f) {
                return "export " + x + " --csv -o '" + t + "'" + (f ? " --force" : "");
            },
            true, p("own.csv"), x },
        { "export --json",
            [&](const std::string& t, bool f) {
                return "export " + x + " --json -o '" + t + "'" + (f ? " --force" : "");
            },
            true, p("own.json"), x },
        { "diff",
            [&](const std::string& t, bool f) {
                return "diff " + x + " " + y + " -o '" + t + "'" + (f ? " --force" : "");
            },
            true, p("own.diff"), y },
        { "diff --csv",
            [&](const std::string& t, bool f) {
                return "diff " + x + " " + y + " --csv -o '" + t + "'" + (f ? " --force" : "");
            },
            true, p("own-diff.csv"), x },
        { "info --save-cpuid",
            [&](const std::string& t, bool f) { return "info --save-cpuid '" + t + "'" + (f ? " --force" : ""); }, true,
            p("own.cpuid.json"), "" },
    };
    // The targets every writer refuses, --force or not, and the reason it gives.
    const std::string fifo = p("fifo"), dir = p("dir"), link = p("link");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    fs::create_directory(dir);
    fs::create_symlink(p("notes.txt"), link);
    struct Refused {
        std::string target;
        const char* reason;
        bool forceOnly; ///< refused for its kind only with --force (without: "will not overwrite")
    };
    const std::vector<Refused> refused = {
        { p("notes.txt"), "is not a", true },
        { p("foreign.db"), "is not a", true },
        { fifo, "is a FIFO", false },
        { dir, "is a directory", false },
        { link, "is a symbolic link", false },
        { "", "an empty output file name", false },
    };
    for (const auto& w : writers) {
        SCOPED_TRACE(w.name);
        std::vector<Refused> rows = refused;
        if (!w.input.empty()) rows.push_back({ w.input, "the command's own input", false });
        for (const auto& row : rows) {
            for (const bool force : { false, true }) {
                if (force && !w.hasForce) continue;
                SCOPED_TRACE(row.target + (force ? " --force" : ""));
                const bool regular = fs::is_regular_file(fs::symlink_status(row.target));
                const std::string before = regular ? readAll(row.target) : std::string();
                const CliRun r = runCli(w.args(row.target, force), 30);
                EXPECT_NE(r.exitCode, 0) << r.output;
                EXPECT_NE(r.exitCode, 124) << "timed out (blocked on the target?)";
                const char* reason = row.forceOnly && !force ? "will not overwrite" : row.reason;
                EXPECT_NE(r.output.find(reason), std::string::npos) << r.output;
                if (regular) {
                    EXPECT_EQ(readAll(row.target), before);
                }
            }
        }
        EXPECT_TRUE(fs::is_fifo(fifo));
        EXPECT_TRUE(fs::is_directory(dir));
        EXPECT_TRUE(fs::is_symlink(link));
        EXPECT_EQ(readAll(p("notes.txt")), "my notes\n");
        EXPECT_EQ(leftovers(s_dir), std::vector<std::string>());
    }
    // A new file is written; an existing one of the writer's own kind only with --force.
    for (const auto& w : writers) {
        if (std::string(w.name).find("--record") != std::string::npos) continue; // long runs: the refusals above
        SCOPED_TRACE(w.name);
        const std::string fresh = p("fresh.out");
        const CliRun made = runCli(w.args(fresh, false), 60);
        EXPECT_EQ(made.exitCode, 0) << made.output;
        EXPECT_TRUE(fs::is_regular_file(fresh));
        const std::string first = readAll(fresh);
        const CliRun again = runCli(w.args(fresh, false), 60);
        EXPECT_NE(again.exitCode, 0) << again.output;
        EXPECT_NE(again.output.find("will not overwrite"), std::string::npos) << again.output;
        EXPECT_EQ(readAll(fresh), first);
        if (w.hasForce) {
            const CliRun forced = runCli(w.args(fresh, true), 60);
            EXPECT_EQ(forced.exitCode, 0) << forced.output;
        }
        fs::remove(fresh);
        EXPECT_EQ(leftovers(s_dir), std::vector<std::string>());
    }
}

TEST_F(OutputRuleCli, IssueDoneWhenCommands)
{
    // `rdtscope-cli export x.rdts --csv -o x.rdts` and `record -o notes.txt --force` are refused and leave the
    // files byte-identical.
    const std::string x = p("x.rdts"), notes = p("notes.txt");
    const std::string session = readAll(x), text = readAll(notes);
    const CliRun exported = runCli("export " + x + " --csv -o " + x, 30);
    EXPECT_EQ(exported.exitCode, 1) << exported.output;
    EXPECT_NE(exported.output.find("is the command's own input"), std::string::npos) << exported.output;
    EXPECT_EQ(readAll(x), session);
    const CliRun recorded = runCli("record -o " + notes + " --force --source sim --duration 1", 30);
    EXPECT_NE(recorded.exitCode, 0) << recorded.output;
    EXPECT_NE(recorded.output.find("is not a session file"), std::string::npos) << recorded.output;
    EXPECT_EQ(readAll(notes), text);
}

TEST_F(OutputRuleCli, DiffRefusesAFifoInputAtOnce)
{
    const std::string fifo = p("input-fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const CliRun r = runCli("diff " + p("x.rdts") + " " + fifo, 20);
    EXPECT_EQ(r.exitCode, 1) << r.output;
    EXPECT_NE(r.output.find("not a regular file"), std::string::npos) << r.output;
    fs::remove(fifo);
}
