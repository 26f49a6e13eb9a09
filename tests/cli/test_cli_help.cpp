// SPDX-License-Identifier: GPL-3.0-or-later
// The README quotes each command's usage lines as `rdtscope-cli CMD --help` prints them (CLI11 generates them from
// the option declarations): every quoted block must match the help exactly, and every command must be quoted, so
// the README's synopses cannot drift from the tool again.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace {

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

/// A "usage: rdtscope-cli ..." line and its indented continuation lines, from line `i` on.
std::string usageBlock(const std::vector<std::string>& text, std::size_t i)
{
    std::string block = text[i] + "\n";
    while (++i < text.size() && text[i].rfind("  ", 0) == 0)
        block += text[i] + "\n";
    return block;
}

/// "groups create" from "usage: rdtscope-cli groups create NAME ...": the (sub)command words (lower case and -)
/// before the first argument or option.
std::string commandOf(const std::string& usage)
{
    std::istringstream in(usage.substr(std::string("usage: rdtscope-cli").size()));
    std::string words;
    for (std::string w;
         in >> w && w[0] != '-' && w.find_first_not_of("abcdefghijklmnopqrstuvwxyz-") == std::string::npos;)
        words += (words.empty() ? "" : " ") + w;
    return words;
}

/// The names listed under "Subcommands:" in a help text.
std::vector<std::string> subcommandsIn(const std::string& help)
{
    std::vector<std::string> names;
    bool inList = false;
    for (const auto& line : lines(help)) {
        if (line == "Subcommands:") {
            inList = true;
        } else if (inList && line.rfind("  ", 0) == 0) {
            names.push_back(line.substr(2, line.find(' ', 2) - 2));
        } else {
            inList = false;
        }
    }
    return names;
}

std::map<std::string, std::string> readmeUsages()
{
    std::ifstream in(RDTSCOPE_README);
    std::stringstream text;
    text << in.rdbuf();
    const auto readme = lines(text.str());
    std::map<std::string, std::string> quoted;
    for (std::size_t i = 0; i < readme.size(); ++i)
        if (readme[i].rfind("usage: rdtscope-cli ", 0) == 0) {
            const std::string block = usageBlock(readme, i);
            quoted[commandOf(block)] = block;
        }
    return quoted;
}

} // namespace

TEST(CliHelp, ReadmeQuotesEachCommandsUsageAsHelpPrintsIt)
{
    const auto quoted = readmeUsages();
    ASSERT_FALSE(quoted.empty()) << "no 'usage: rdtscope-cli' block in " << RDTSCOPE_README;
    for (const auto& [command, block] : quoted) {
        const CliRun r = runCli(command + " --help", 20);
        ASSERT_EQ(r.exitCode, 0) << command << " --help\n" << r.output;
        const auto help = lines(r.output);
        ASSERT_FALSE(help.empty());
        EXPECT_EQ(block, usageBlock(help, 0))
            << "README.md quotes `rdtscope-cli " << command << " --help` differently from what it prints";
    }
}

TEST(CliHelp, ReadmeQuotesEveryCommand)
{
    const auto quoted = readmeUsages();
    const CliRun top = runCli("--help", 20);
    ASSERT_EQ(top.exitCode, 0) << top.output;
    const auto commands = subcommandsIn(top.output);
    ASSERT_GE(commands.size(), 13u) << top.output;
    for (const auto& c : commands) {
        const CliRun r = runCli(c + " --help", 20);
        ASSERT_EQ(r.exitCode, 0) << r.output;
        // A command with actions (alloc show|set) is quoted action by action.
        auto actions = subcommandsIn(r.output);
        if (actions.empty()) actions.push_back("");
        for (const auto& a : actions) {
            const std::string name = a.empty() ? c : c + " " + a;
            EXPECT_TRUE(quoted.count(name)) << "README.md does not quote `rdtscope-cli " << name << " --help`";
        }
    }
}

TEST(CliHelp, UsageErrorsExitTwoAndHelpExitsZero)
{
    EXPECT_EQ(runCli("", 20).exitCode, 2);
    const CliRun unknown = runCli("frobnicate", 20);
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_NE(unknown.output.find("unknown command 'frobnicate'"), std::string::npos) << unknown.output;
    EXPECT_EQ(runCli("summary", 20).exitCode, 2) << "FILE is required";
    EXPECT_EQ(runCli("export x.rdts --csv --json", 20).exitCode, 2);
    EXPECT_EQ(runCli("groups assign g --pids 1 --cpus 1", 20).exitCode, 2);
    EXPECT_EQ(runCli("pmu tma ls", 20).exitCode, 2) << "the profiled command goes after --";
    const CliRun help = runCli("replay --help", 20);
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_NE(help.output.find("--speed X|max"), std::string::npos) << help.output;
}
