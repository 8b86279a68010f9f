// The dctwin executable (DESIGN.md §5.2, §7): exit status 0 success, 1 simulation failed,
// 2 bad input or usage; errors on stderr name what the user can fix; results on stdout or in
// files; a failed run leaves no report behind. Broken scenarios are generated into a temp
// directory from scenarios/azure_gb300_64.json.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <string>

#include "core/json.h"
#include "dctwin/version.h"

namespace {

namespace fs = std::filesystem;
using dctwin::Json;

const fs::path kSource = DCTWIN_SOURCE_DIR;

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

class Cli : public ::testing::Test {
protected:
    struct Result {
        int status = -1;
        std::string out, err;
    };

    void SetUp() override {
        std::random_device rd;
        dir_ = fs::temp_directory_path() /
               ("dctwin_cli_" + std::to_string(rd()) + "_" + std::to_string(rd()));
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    /// Runs `dctwin ARGS` (args already shell-quoted) with stdout and stderr captured; from
    /// the folder `cwd` when one is given.
    Result dctwin(const std::string& args, const fs::path& cwd = {}) const {
        const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
        const std::string cmd = (cwd.empty() ? "" : "cd " + quote(cwd.string()) + " && ") +
                                quote(DCTWIN_EXE) + " " + args + " >" + quote(out.string()) +
                                " 2>" + quote(err.string()) + " </dev/null";
        const int rc = std::system(cmd.c_str());
        Result r;
        r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
        r.out = slurp(out);
        r.err = slurp(err);
        return r;
    }

    /// The reference scenario with changes, written into the temp dir.
    fs::path scenarioFile(const std::string& name, const Json& j) const {
        std::ofstream(dir_ / name) << j.dump(2);
        return dir_ / name;
    }
    static Json reference() {
        return dctwin::readJsonFile(kSource / "scenarios/azure_gb300_64.json");
    }
    /// One summer day at hourly output: the shortest complete annual-study run.
    static Json oneDay() {
        Json j = reference();
        j["study"] = {
            {"kind", "annual"}, {"start", "07-15"}, {"days", 1}, {"output_interval_s", 3600}};
        return j;
    }

    /// Expects exit status 2 and every fragment in stderr.
    static void expectInputError(const Result& r, std::initializer_list<std::string> fragments) {
        EXPECT_EQ(r.status, 2) << "stderr: " << r.err;
        for (const auto& f : fragments) {
            EXPECT_NE(r.err.find(f), std::string::npos)
                << "stderr '" << r.err << "' lacks '" << f << "'";
        }
    }

    fs::path dir_;
};

TEST_F(Cli, HelpOfACommandThatDoesNotExistIsAnError) {
    // `dctwin help bogus` and `dctwin bogus --help` printed the general usage with exit 0, as
    // if the command existed; `trace inspekt` did not say which word was wrong.
    for (const char* args : {"help bogus", "bogus --help"}) {
        expectInputError(dctwin(args), {"unknown command 'bogus'", "valid commands: run"});
    }
    expectInputError(dctwin("help rn"), {"did you mean 'run'?"});
    expectInputError(dctwin("trace inspekt f.csv"), {"got 'inspekt' where 'inspect' goes"});
    EXPECT_EQ(dctwin("help --json").status, 0);
}

TEST_F(Cli, HelpPrintsUsageAndSucceeds) {
    // DESIGN.md §5.2: --help lists the commands; exit status 0.
    const Result r = dctwin("--help");
    EXPECT_EQ(r.status, 0);
    for (const char* s : {"Usage:", "dctwin run SCENARIO.json", "dctwin size", "dctwin sweep",
                          "dctwin validate", "Exit status"}) {
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
    }
    // After a command, --help gives that command's usage (it was "unknown option '--help'
    // for 'trace'", exit 2); `dctwin help COMMAND` the same.
    for (const auto& [args, want] : {std::pair{"trace inspect --help", "dctwin trace inspect FILE"},
                                     std::pair{"run -h", "dctwin run SCENARIO.json"},
                                     std::pair{"help size", "dctwin size SCENARIO.json"}}) {
        const Result c = dctwin(args);
        EXPECT_EQ(c.status, 0) << args << ": " << c.err;
        EXPECT_NE(c.out.find(want), std::string::npos) << args << ": " << c.out;
        EXPECT_EQ(c.out.find("dctwin validate"), std::string::npos) << args << ": " << c.out;
    }
}

TEST_F(Cli, VersionPrintsTheBuildVersion) {
    // The version comes from the generated dctwin/version.h (CMake project version).
    const Result r = dctwin("--version");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind(std::string("dctwin ") + dctwin::kVersion, 0), 0u) << r.out;
}

TEST_F(Cli, UsageErrorsExitWithStatusTwo) {
    // DESIGN.md §5.2: exit status 2 for bad usage, with advice on stderr.
    expectInputError(dctwin(""), {"no command given", "--help"});
    expectInputError(dctwin("frobnicate x.json"),
                     {"unknown command 'frobnicate'", "run, size, sweep, validate"});
    expectInputError(dctwin("run x.json --fast"), {"unknown option '--fast'"});
    expectInputError(dctwin("validate"), {"exactly one scenario file"});
    expectInputError(dctwin("run x.json -o"), {"-o needs a value"});
    expectInputError(dctwin("sweep x.json -j 0"), {"positive whole number"});
}

TEST_F(Cli, AnOptionAnotherCommandReadsIsRefusedNotIgnored) {
    // `dctwin size x.json -o design.h5` exited 0 and wrote nothing: the parser knew -o (run,
    // sweep and schema read it) and size never looked. Each command now refuses what it does
    // not read, names the option and lists its own, before reading the scenario.
    expectInputError(dctwin("size x.json -o design.h5"),
                     {"option '-o' does not apply to 'dctwin size'", "its options: --json"});
    expectInputError(dctwin("run x.json --json"),
                     {"'--json' does not apply to 'dctwin run'", "--summary-json, --csv"});
    expectInputError(dctwin("validate x.json --quiet"),
                     {"'--quiet' does not apply to 'dctwin validate'", "its options: none"});
    expectInputError(dctwin("sweep x.json --csv out"),
                     {"'--csv' does not apply to 'dctwin sweep'"});
    expectInputError(dctwin("schema --json"), {"'--json' does not apply to 'dctwin schema'"});
    expectInputError(dctwin("trace inspect f.csv -o x"),
                     {"'-o' does not apply to 'dctwin trace'", "--format, --json"});
    // What each command does read still passes the check (and fails later on the missing file).
    const Result r = dctwin("size no_such.json --json");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.find("does not apply"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("no_such.json"), std::string::npos) << r.err;
}

TEST_F(Cli, AttachedOptionValuesReadAsSeparateOnes) {
    // `dctwin sweep s.json -j2` (as make and ninja take it) was "unknown option '-j2'". The
    // attached spellings -j2, -oDIR and --output=DIR now read as -j 2, -o DIR, --output DIR,
    // and the same checks apply to them: the value, and which command reads the option.
    expectInputError(dctwin("sweep x.json -j0"), {"-j expects a positive whole number", "'0'"});
    expectInputError(dctwin("sweep x.json --threads=none"),
                     {"--threads expects a positive whole number", "'none'"});
    expectInputError(dctwin("size x.json -odesign.h5"), {"option '-o' does not apply"});
    expectInputError(dctwin("size x.json --output=design.h5"),
                     {"option '--output' does not apply"});
    expectInputError(dctwin("run x.json --quiet=yes"), {"'--quiet' takes no value"});
    expectInputError(dctwin("run x.json --fast=1"), {"unknown option '--fast=1'"});
    // Accepted: the run goes on to the file, which is missing, and names it.
    for (const std::string& cmd : {"sweep no_such.json -j2 -o" + quote((dir_ / "out").string()),
                                   std::string("sweep no_such.json --threads=2")}) {
        const Result r = dctwin(cmd);
        EXPECT_EQ(r.status, 2) << cmd;
        EXPECT_EQ(r.err.find("option"), std::string::npos) << cmd << ": " << r.err;
        EXPECT_NE(r.err.find("no_such.json"), std::string::npos) << cmd << ": " << r.err;
    }
    const fs::path report = dir_ / "attached.h5";
    const Result run =
        dctwin("run " + quote((kSource / "scenarios/contingency_utility_loss.json").string()) +
               " --quiet --output=" + quote(report.string()));
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_TRUE(fs::exists(report));
}

TEST_F(Cli, AnOptionGivenTwiceOrWithAnOptionForItsValueIsRefused) {
    // `run s.json -o a.h5 -o b.h5` wrote b.h5 only, without a word; `-o --quiet` wrote a report
    // named "--quiet". Both are usage errors naming the option, for every command alike.
    expectInputError(dctwin("run x.json -o a.h5 -o b.h5"),
                     {"option -o is given twice (-o and -o); it takes one value"});
    expectInputError(dctwin("run x.json --output=a.h5 -ob.h5"),
                     {"option -o is given twice (--output and -o)"});
    expectInputError(dctwin("sweep x.json -j 2 --threads 3"),
                     {"option --threads is given twice (-j and --threads)"});
    expectInputError(dctwin("trace inspect f.csv --format csv --format=auto"),
                     {"option --format is given twice"});
    expectInputError(dctwin("run x.json -o --quiet"),
                     {"-o expects a file name, got the option --quiet"});
    expectInputError(dctwin("run x.json --summary-json -q"),
                     {"--summary-json expects a file name, got the option -q"});
    expectInputError(dctwin("run x.json --csv --output=r.h5"),
                     {"--csv expects a folder name, got the option --output=r.h5"});
    expectInputError(dctwin("sweep x.json -o -j2"),
                     {"-o expects a folder name, got the option -j2"});
    expectInputError(dctwin("sweep x.json -j --quiet"),
                     {"-j expects a number of threads, got the option --quiet"});
    EXPECT_FALSE(fs::exists(kSource / "--quiet"));
    // A flag given twice means the same thing twice: accepted (the run then finds no file).
    const Result q = dctwin("run no_such.json -q --quiet");
    EXPECT_EQ(q.status, 2);
    EXPECT_EQ(q.err.find("option"), std::string::npos) << q.err;
    // A value that only starts with '-' is no option's name and stays a value.
    const Result dash = dctwin("run no_such.json -o -report.h5");
    EXPECT_EQ(dash.status, 2);
    EXPECT_EQ(dash.err.find("expects"), std::string::npos) << dash.err;
    EXPECT_NE(dash.err.find("no_such.json"), std::string::npos) << dash.err;
}

TEST_F(Cli, UnknownCommandsAndOptionsSuggestTheNearestByTheOneRule) {
    // core/json.h nearestName, as scenario keys and names: case, then prefix, then edits.
    expectInputError(dctwin("valid x.json"), {"unknown command 'valid'; did you mean 'validate'?"});
    expectInputError(dctwin("RUN x.json"), {"did you mean 'run'?"});
    expectInputError(dctwin("run x.json --qiet"),
                     {"unknown option '--qiet' for 'run'; did you mean '--quiet'?"});
    expectInputError(dctwin("run x.json --summary"), {"did you mean '--summary-json'?"});
}

TEST_F(Cli, EachCommandReadsTheOptionsItsUsageLineGives) {
    // The parser, the split of attached values and the per-command check read one table of
    // options; --help is written by hand. A command refusing an option lists the ones it reads:
    // that list must be the usage line's bracketed options, no more and no fewer.
    const std::regex bracketed(R"(\[(-{1,2}[a-z-]+))");
    for (const std::string command : {"run", "size", "sweep", "validate", "schema", "trace"}) {
        const Result help = dctwin(command + " --help");
        ASSERT_EQ(help.status, 0) << help.err;
        const std::string usage_line =
            help.out.substr(0, help.out.find('\n', help.out.find("dctwin ")));
        std::vector<std::string> in_usage;
        for (std::sregex_iterator m(usage_line.begin(), usage_line.end(), bracketed), end; m != end;
             ++m) {
            in_usage.push_back((*m)[1]);
        }
        const std::string foreign = command == "schema" ? "--json" : "--markdown";
        const Result r = dctwin(command + " x " + foreign);
        ASSERT_EQ(r.status, 2) << command;
        const std::string key = "its options: ";
        const std::size_t at = r.err.find(key);
        ASSERT_NE(at, std::string::npos) << r.err;
        const std::string listed =
            r.err.substr(at + key.size(), r.err.find('\n', at) - at - key.size());
        std::vector<std::string> refused_lists;
        std::istringstream in(listed);
        for (std::string item; std::getline(in, item, ',');) {
            item.erase(0, item.find_first_not_of(' '));
            if (item != "none") refused_lists.push_back(item);
        }
        std::sort(in_usage.begin(), in_usage.end());
        std::sort(refused_lists.begin(), refused_lists.end());
        EXPECT_EQ(in_usage, refused_lists)
            << command << ": usage '" << usage_line << "', listed '" << listed << "'";
    }
    // A flag's short spelling with something attached is a value it does not take.
    expectInputError(dctwin("run x.json -q2"), {"'-q' takes no value, got '-q2'"});
    // An unknown command is named before its options are looked at.
    expectInputError(dctwin("frobnicate --bar"), {"unknown command 'frobnicate'"});
}

TEST_F(Cli, ASweepIsValidatedCaseByCaseAndRefusedWhereAScenarioBelongs) {
    // A newcomer's `dctwin validate` of a shipped sweep read "unknown key 'base'; did you mean
    // 'name'?". It now checks every case (sized and built, as for a scenario), and `run` or
    // `size` of a sweep says what the file is and which command takes it.
    const fs::path sweep = kSource / "scenarios/sweep_heat_rejection_climate.json";
    const Result ok = dctwin("validate " + quote(sweep.string()));
    ASSERT_EQ(ok.status, 0) << ok.err;
    EXPECT_NE(ok.out.find("valid sweep ('heat rejection x climate', 9 cases"), std::string::npos)
        << ok.out;
    for (const char* command : {"run ", "size "}) {
        expectInputError(dctwin(command + quote(sweep.string())),
                         {"this is a sweep file, not a scenario", "dctwin sweep"});
    }
    // A case that cannot be read is named by the case.
    Json bad = dctwin::readJsonFile(sweep);
    bad["base"] = (kSource / "scenarios/azure_gb300_64.json").string();
    bad["vary"]["/cooling/cdu/racks_per_cdu"] = Json::array({8, 900});
    const fs::path file = dir_ / "bad_sweep.json";
    std::ofstream(file) << bad.dump(2);
    expectInputError(dctwin("validate " + quote(file.string())),
                     {"racks_per_cdu", "900", "case '"});
    // A typo in "vary" is the sweep reader's to name; it went to the scenario reader ("unknown
    // key 'base'; did you mean 'name'?").
    Json typo = dctwin::readJsonFile(sweep);
    typo["varry"] = typo["vary"];
    typo.erase("vary");
    typo.erase("set");
    typo.erase("cases");
    typo.erase("ensemble");
    const fs::path typo_file = dir_ / "typo_sweep.json";
    std::ofstream(typo_file) << typo.dump(2);
    expectInputError(dctwin("validate " + quote(typo_file.string())),
                     {"unknown key 'varry'; did you mean 'vary'?"});
}

TEST_F(Cli, ValidateRefusesWhatTheRunRefuses) {
    // The events are checked against the sized site where the run applies them; validate
    // sized and built the models but did not look: it said "valid" to 1,000 generator sets
    // failing of the 7 installed, and to two utility losses in one study.
    Json j = dctwin::readJsonFile(kSource / "scenarios/contingency_utility_loss.json");
    j["events"][0]["generators_failing"] = 1000;
    // `size` too (an audit: it printed the sizing of both).
    for (const std::string cmd : {"validate ", "size "}) {
        expectInputError(dctwin(cmd + quote(scenarioFile("gens.json", j).string())),
                         {"gens.json", "/events/0/generators_failing", "the site has 7"});
        Json two = dctwin::readJsonFile(kSource / "scenarios/contingency_utility_loss.json");
        two["events"].push_back(two["events"][0]);
        two["events"][1]["at_s"] = 90;
        expectInputError(dctwin(cmd + quote(scenarioFile("two.json", two).string())),
                         {"two.json", "/events/1", "one utility_loss event"});
    }
}

TEST_F(Cli, AModelErrorNamesTheFileAndWhereTheModelGaveOut) {
    // One dry cooler for the whole hall (accepting a missed setpoint): at the design point the
    // loop's water would leave the 0-90 °C table. The message was the coolant's alone
    // ("dctwin: model error: coolant water: enthalpy requested at 91.00 °C ..."), without the
    // file or the step that gave out; now both, exit 2 as before.
    Json j = oneDay();
    j["cooling"]["coolant"] = "water";
    j["cooling"]["heat_rejection"] = {{"type", "dry_cooler"},
                                      {"units", 1},
                                      {"redundancy_units", 0},
                                      {"accept_setpoint_exceedance", true}};
    const fs::path f = scenarioFile("one_unit.json", j);
    for (const std::string cmd : {"validate ", "size "}) {
        const Result r = dctwin(cmd + quote(f.string()));
        EXPECT_EQ(r.status, 2) << cmd << r.err;
        EXPECT_NE(r.err.find("model error: " + f.string() +
                             ": the site cannot be sized and solved at its design point"),
                  std::string::npos)
            << cmd << r.err;
        EXPECT_NE(r.err.find("outside its table"), std::string::npos) << cmd << r.err;
    }
}

TEST_F(Cli, MissingScenarioFileIsNamed) {
    const std::string missing = (dir_ / "no_such_scenario.json").string();
    const Result r = dctwin("validate " + quote(missing));
    expectInputError(r, {missing, "no such file"});
}

TEST_F(Cli, JsonSyntaxErrorGivesTheLine) {
    // A missing comma on line 3: core/json.cpp reports "<file>:<line>:<column>".
    const fs::path f = dir_ / "bad_syntax.json";
    std::ofstream(f) << "{\n  \"name\": \"broken\",\n  \"site\": {} \"it\": {}\n}\n";
    const Result r = dctwin("validate " + quote(f.string()));
    expectInputError(r, {f.string() + ":3:"});
}

TEST_F(Cli, WrongTypeNamesTheJsonPath) {
    Json j = reference();
    j["it"]["racks"][0]["count"] = "64";
    const Result r = dctwin("validate " + quote(scenarioFile("wrong_type.json", j).string()));
    expectInputError(r, {"/it/racks/0/count", "expected an integer"});
    // "$schema" is for editors, and its type is still checked (123 passed).
    Json s = reference();
    s["$schema"] = 123;
    expectInputError(dctwin("validate " + quote(scenarioFile("schema123.json", s).string())),
                     {"/$schema", "expected a string"});
}

TEST_F(Cli, DoubleDashEndsTheOptions) {
    // `--` ends the options as for every POSIX tool ("unknown option '--'" before), so a file
    // whose name starts with '-' can be named.
    const fs::path f = scenarioFile("-dash.json", reference());
    const Result r = dctwin("validate -- " + quote(f.filename().string()), dir_);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("valid"), std::string::npos) << r.out;
    // Without it the name reads as an option.
    expectInputError(dctwin("validate " + quote(f.filename().string()), dir_),
                     {"unknown option '-dash.json'"});
}

TEST_F(Cli, ErrorsFoundAfterReadingNameTheScenarioFile) {
    // A contingency's CDU is checked against the sized hall, after the reader: the message
    // named the place in the scenario but not the file, as the reader's errors do.
    Json j = oneDay();
    j["study"] = {{"kind", "transient"}, {"duration_s", 120}, {"output_interval_s", 10}};
    j["events"] = Json::array({{{"type", "cdu_pump_trip"}, {"cdu", 99}, {"at_s", 60}}});
    const fs::path f = scenarioFile("cdu99.json", j);
    for (const char* command : {"run ", "size ", "validate "}) {
        const Result r = dctwin(command + quote(f.string()));
        expectInputError(r, {"cdu99.json: /events/0/cdu", "99"});
    }
}

TEST_F(Cli, NegativeCountIsOutOfRange) {
    Json j = reference();
    j["it"]["racks"][0]["count"] = -64;
    const Result r = dctwin("validate " + quote(scenarioFile("negative.json", j).string()));
    expectInputError(r, {"/it/racks/0/count", "-64", "out of range"});
}

TEST_F(Cli, UnknownCatalogNameListsTheChoices) {
    // data/catalog/power/racks.json holds gb300_nvl72 (and others); gb999 is none of them.
    Json j = reference();
    j["it"]["racks"][0]["model"] = "gb999";
    const Result r = dctwin("validate " + quote(scenarioFile("unknown_rack.json", j).string()));
    expectInputError(r, {"/it/racks/0", "'gb999'", "valid choices", "gb300_nvl72"});
}

TEST_F(Cli, AFaultOfASweepsBaseScenarioNamesTheBaseFile) {
    // Validating a sweep whose base has a fault that sizing finds (more facility pumps lost
    // than installed) reported it as the first case's ("sweep.json: case '100': /events/1
    // ..."); the fault is the base file's. (Faults that reading finds, an unknown rack, are
    // named by the base file by parseSweep, which reads each case.)
    Json base = reference();
    base["events"] = Json::array({{{"type", "fws_pump_trip"}, {"at_s", 60}, {"pumps", 2}},
                                  {{"type", "fws_pump_trip"}, {"at_s", 120}, {"pumps", 2}}});
    const fs::path base_file = scenarioFile("base.json", base);
    const fs::path sweep = scenarioFile(
        "sweep.json", Json{{"base", "base.json"}, {"vary", {{"/site/other_load_kW", {100, 200}}}}});
    const Result r = dctwin("validate " + quote(sweep.string()));
    expectInputError(
        r,
        {"dctwin: error: " + base_file.string() + ": /events/1/pumps", "4 facility pumps lost",
         "(in the base scenario of " + sweep.string() + ", so in every case; the first is '100')"});
    Json unknown_rack = reference();
    unknown_rack["it"]["racks"][0]["model"] = "gb999";
    scenarioFile("base.json", unknown_rack);
    expectInputError(dctwin("validate " + quote(sweep.string())),
                     {"dctwin: error: " + base_file.string() + ": /it/racks/0", "'gb999'",
                      "in the base scenario of"});
    // A fault a case brings in stays the case's.
    const fs::path good = scenarioFile("good.json", reference());
    (void)good;
    const fs::path bad_case = scenarioFile(
        "bad_case.json",
        Json{{"base", "good.json"}, {"vary", {{"/it/racks/0/model", {"gb300_nvl72", "gb999"}}}}});
    const Result c = dctwin("validate " + quote(bad_case.string()));
    expectInputError(c, {bad_case.string() + ": case 'gb999': ", "'gb999'"});
    EXPECT_EQ(c.err.find("base scenario"), std::string::npos) << c.err;
}

TEST_F(Cli, UnknownKeySuggestsTheNearestOne) {
    Json j = reference();
    j["cooling"]["cdu"].erase("racks_per_cdu");
    j["cooling"]["cdu"]["racks_per_cud"] = 8;
    const Result r = dctwin("validate " + quote(scenarioFile("typo.json", j).string()));
    expectInputError(r, {"/cooling/cdu", "racks_per_cud", "did you mean 'racks_per_cdu'"});
}

TEST_F(Cli, MissingWeatherFileIsNamed) {
    const std::string epw = (dir_ / "nowhere.epw").string();
    Json j = reference();
    j["site"]["weather"] = epw;
    const Result r = dctwin("validate " + quote(scenarioFile("no_weather.json", j).string()));
    expectInputError(r, {"/site/weather", epw});
}

TEST_F(Cli, TruncatedWeatherFileIsRejected) {
    // DESIGN.md §3.3/§7: an EPW has 8 header lines and 8,760 hourly rows; a copy cut after
    // 100 lines is an input error, not a silent result.
    std::ifstream in(kSource / "data/weather/USA_WI_Milwaukee-Mitchell.Intl.AP.726400_TMY3.epw");
    std::ofstream cut(dir_ / "truncated.epw");
    std::string line;
    for (int i = 0; i < 100 && std::getline(in, line); ++i) cut << line << "\n";
    cut.close();
    Json j = reference();
    j["site"]["weather"] = (dir_ / "truncated.epw").string();
    const Result r = dctwin("validate " + quote(scenarioFile("truncated.json", j).string()));
    // 100 lines less the 8 header lines; the key that named the file in front.
    expectInputError(r,
                     {"/site/weather: ", "truncated.epw", "expected 8760 hourly rows, found 92"});
}

TEST_F(Cli, EveryShippedScenarioValidates) {
    // Issue 5 lists the scenarios of scenarios/; `validate` builds each model without running
    // it. Sweep files are read by `dctwin sweep` (facility tests load them with loadSweep).
    int n = 0;
    for (const auto& e : fs::directory_iterator(kSource / "scenarios")) {
        if (e.path().extension() != ".json") continue;
        if (e.path().filename().string().find("sweep") != std::string::npos) continue;
        const Result r = dctwin("validate " + quote(e.path().string()));
        EXPECT_EQ(r.status, 0) << e.path() << ": " << r.err;
        EXPECT_NE(r.out.find("valid"), std::string::npos) << r.out;
        ++n;
    }
    EXPECT_GE(n, 5);
}

TEST_F(Cli, RunWritesReportSummaryAndCsv) {
    // DESIGN.md §5.2 and §5.3: run with a report, a summary JSON and CSV export.
    const fs::path scen = scenarioFile("one_day.json", oneDay());
    const fs::path report = dir_ / "report.h5", summary = dir_ / "s.json", csv = dir_ / "csv";
    const Result r =
        dctwin("run " + quote(scen.string()) + " -o " + quote(report.string()) +
               " --summary-json " + quote(summary.string()) + " --csv " + quote(csv.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    // The summary on stdout, plain progress lines on stderr (not a terminal).
    EXPECT_NE(r.out.find("PUE"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("energy balance"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("100 %"), std::string::npos) << r.err;

    ASSERT_TRUE(fs::is_regular_file(report));
    ASSERT_TRUE(fs::is_regular_file(summary));
    ASSERT_TRUE(fs::is_directory(csv));
    EXPECT_FALSE(fs::is_empty(csv));
    // No temporary files left next to the outputs.
    for (const auto& e : fs::directory_iterator(dir_)) {
        EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
    }

    const Json s = dctwin::readJsonFile(summary);
    for (const char* key :
         {"it_energy_MWh", "facility_energy_MWh", "pue", "water_m3", "wue_L_per_kWh", "peak_it_kW",
          "peak_facility_kW", "max_gpu_junction_C", "energy_balance_rel_error", "sizing"}) {
        EXPECT_TRUE(s.contains(key)) << key;
    }
    EXPECT_LT(std::abs(s["energy_balance_rel_error"].get<double>()), 1e-3);
    EXPECT_DOUBLE_EQ(s["simulated_h"].get<double>(), 24.0);
    EXPECT_EQ(s["units"]["it_energy_MWh"], "MWh");  // every metric says its unit

    // h5dump reads the report; every dataset under /timeseries has a units attribute.
    if (fs::exists("/usr/bin/h5dump")) {
        const fs::path header = dir_ / "h5dump.txt";
        const int rc = std::system(("/usr/bin/h5dump -H -g /timeseries " + quote(report.string()) +
                                    " >" + quote(header.string()) + " 2>&1")
                                       .c_str());
        ASSERT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 0) << slurp(header);
        const std::string h = slurp(header);
        std::size_t datasets = 0, units = 0;
        for (std::size_t p = 0; (p = h.find("DATASET \"", p)) != std::string::npos; ++p) {
            ++datasets;
        }
        for (std::size_t p = 0; (p = h.find("ATTRIBUTE \"units\"", p)) != std::string::npos; ++p) {
            ++units;
        }
        EXPECT_GE(datasets, 10u) << h;
        EXPECT_EQ(units, datasets) << h;
        // The root and summary attributes of DESIGN.md §5.3.
        const int rc2 = std::system(("/usr/bin/h5dump -A -g / " + quote(report.string()) + " >" +
                                     quote(header.string()) + " 2>&1")
                                        .c_str());
        ASSERT_TRUE(WIFEXITED(rc2) && WEXITSTATUS(rc2) == 0);
        const std::string root = slurp(header);
        for (const char* a : {"generator", "version", "git_commit", "scenario_name"}) {
            EXPECT_NE(root.find(std::string("ATTRIBUTE \"") + a + "\""), std::string::npos) << a;
        }
    }
}

TEST_F(Cli, AContingencyPrintsItsEventsAndWhatWasNotHeld) {
    // The summary printed the contingency as one line of raw JSON, a 600 s study as "0.2 h
    // simulated" and its 1.4 MWh as "1.4 MWh"; the ride-through, the plant's shortfalls and
    // the event log were only in the files. Cut to 180 s: the utility fails at 60 s.
    Json j = dctwin::readJsonFile(kSource / "scenarios/contingency_utility_loss.json");
    j["study"]["duration_s"] = 180;
    const fs::path scen = scenarioFile("loss.json", j);
    const Result r =
        dctwin("run " + quote(scen.string()) + " -o " + quote((dir_ / "r.h5").string()));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("(180 s simulated)"), std::string::npos) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex("IT energy +[0-9]+\\.[0-9] kWh"))) << r.out;
    EXPECT_EQ(r.out.find('{'), std::string::npos) << r.out;  // no raw JSON
    // The event log in time order, the generator plan of utility_loss.h: sets online 10 s
    // after the loss, blocks 5 s apart, the air side 30 s after its block.
    EXPECT_TRUE(std::regex_search(
        r.out, std::regex("events +60\\.0 s  utility lost[^\\n]*\\n +70\\.0 s  7 of 7 generator")))
        << r.out;
    EXPECT_NE(r.out.find("105.0 s  air side running"), std::string::npos) << r.out;
    // What it cost: 30 s on the battery (60 s → 90 s walk-in end), and the 45 s without an air
    // side, at the whole room air load.
    EXPECT_NE(r.out.find("UPS ride-through    30.0 s"), std::string::npos) << r.out;
    // Its workload is averaged (a contingency's default), so no smoothing is modelled and none
    // is reported: the line read "burnt 0.0 kWh (0.0 % of IT energy), deferred nan kWh".
    EXPECT_EQ(r.out.find("smoothing"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("nan"), std::string::npos) << r.out;
    EXPECT_TRUE(
        std::regex_search(r.out, std::regex("air side short for 45 s \\(up to 1[67][0-9]{2} kW")))
        << r.out;
    // An annual run that holds every setpoint prints no setpoint line; what it does print is
    // the reference's frost exposure (water in outdoor coils, Milwaukee's 99.6 % heating dry
    // bulb −20.0 °C), a design figure that no study window changes.
    const fs::path day = scenarioFile("one_day.json", oneDay());
    const Result a =
        dctwin("run " + quote(day.string()) + " -o " + quote((dir_ / "a.h5").string()));
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(a.out.find("above its setpoint"), std::string::npos) << a.out;
    EXPECT_NE(a.out.find("not held            facility loop freezes at 0.0 °C, above the site's "
                         "99.6 % heating dry bulb (-20.0 °C)"),
              std::string::npos)
        << a.out;
    EXPECT_EQ(a.out.find("events"), std::string::npos) << a.out;
    EXPECT_NE(a.out.find("(24.0 h simulated)"), std::string::npos) << a.out;
}

TEST_F(Cli, ACampusPrintsEachHallsFigures) {
    // A campus of halls printed only its totals: a hall on cooling towers and a hall on
    // adiabatic dry coolers summed into one water figure. One July day of the shipped campus.
    Json j = dctwin::readJsonFile(kSource / "scenarios/campus_two_halls.json");
    j["study"] = {{"kind", "annual"}, {"start", "07-15"}, {"days", 1}, {"output_interval_s", 3600}};
    const fs::path scen = scenarioFile("campus.json", j);
    const fs::path summary = dir_ / "s.json";
    const Result r =
        dctwin("run " + quote(scen.string()) + " --summary-json " + quote(summary.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    const Json s = dctwin::readJsonFile(summary);
    // Each hall's row: IT and cooling energy, pPUE, water, WUE, hottest junction, read back
    // from the printed text and compared with the summary's figures at the printed precision.
    // Hall B's towers evaporate where hall A's dry coolers mostly do not: its WUE is higher.
    std::map<std::string, double> wue;
    for (const std::string hall : {"A", "B"}) {
        std::smatch m;
        const std::regex row("\\n  " + hall +
                             " +([0-9.]+) (k|M)Wh +([0-9.]+) (k|M)Wh +([0-9.]+) +([0-9.]+) (L|m3) +"
                             "([0-9.]+) L/kWh +([0-9.]+) C\\n");
        ASSERT_TRUE(std::regex_search(r.out, m, row)) << r.out;
        const auto scale = [&](int i) { return m[i].str() == "k" ? 1e-3 : 1.0; };
        const std::string p = "hall_" + hall + "_";
        // One decimal of kWh or MWh, four of pPUE, three of WUE.
        EXPECT_NEAR(std::stod(m[1]) * scale(2), s[p + "it_energy_MWh"].get<double>(),
                    0.051 * scale(2));
        EXPECT_NEAR(std::stod(m[3]) * scale(4), s[p + "cooling_energy_MWh"].get<double>(),
                    0.051 * scale(4));
        EXPECT_NEAR(std::stod(m[5]), s[p + "ppue_cooling"].get<double>(), 5.1e-5);
        EXPECT_NEAR(std::stod(m[8]), s[p + "wue_L_per_kWh"].get<double>(), 5.1e-4);
        EXPECT_NEAR(std::stod(m[6]) * (m[7].str() == "L" ? 1e-3 : 1.0),
                    s[p + "water_m3"].get<double>(), 0.05);
        EXPECT_NEAR(std::stod(m[9]), s[p + "max_gpu_junction_C"].get<double>(), 0.051);
        wue[hall] = std::stod(m[8]);
    }
    EXPECT_GT(wue["B"], 2.0 * wue["A"]);
    // The campus's own share: the fabric is IT outside the halls' racks.
    EXPECT_TRUE(std::regex_search(
        r.out, std::regex("\\n  campus +fabric [0-9.]+ [kM]Wh, air side [0-9.]+ [kM]Wh, "
                          "electrical losses [0-9.]+ [kM]Wh\\n")))
        << r.out;
}

TEST_F(Cli, ATransientPrintsItsSwingsAndWhatSmoothingCost) {
    // A resolved study is run for its power swings, and the summary printed none of them.
    // Three minutes of the shipped synchronized-training hour.
    Json j = dctwin::readJsonFile(kSource / "scenarios/transient_training_swings.json");
    j["study"]["hours"] = 0.05;
    const fs::path scen = scenarioFile("swings.json", j);
    const Result r = dctwin("run " + quote(scen.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(
        r.out, m,
        std::regex("\\npower swing +racks ([0-9]+) kW, IT at the grid ([0-9]+) kW, utility "
                   "([0-9]+) kW")))
        << r.out;
    // The grid side's max - min still holds the job's start ramp in three minutes; the racks
    // swing between communication and compute at every edge: 50 % of each rack's idle-to-cap
    // range (101.25 kW) on 64 racks is 3,240 kW by hand (the hour's run reads 3,338 kW, the
    // warmer dies' leakage on top); the start ramp can only widen it.
    EXPECT_GT(std::stod(m[1]), 0.9 * 3240.0);
    ASSERT_TRUE(std::regex_search(
        r.out, m,
        std::regex("\\nramp over 1 s +racks ([0-9.]+) MW/s, IT at the grid ([0-9.]+) MW/s")))
        << r.out;
    // The smoothing holds the grid side to its ramp limit: 100 W/s per GPU x 4,608 GPUs =
    // 0.461 MW/s (the scenario's ramp_up/down_W_per_s), printed to 0.01 MW/s; the racks'
    // compute/communication edges move ~3 MW within the second.
    EXPECT_LE(std::stod(m[2]), 0.4608 + 0.005);
    EXPECT_GT(std::stod(m[1]), 0.9 * 3.240);  // a whole edge within the second
    // Each share names its base: the deferral's is the racks' demand, not the IT energy the
    // burn's is (it read "deferred 36.4 kWh (3.9 %)" beside "(15.7 % of IT energy)").
    EXPECT_TRUE(std::regex_search(
        r.out, std::regex("\\nsmoothing +burnt [0-9.]+ kWh \\([0-9.]+ % of IT energy\\), "
                          "deferred [0-9.]+ kWh \\([0-9.]+ % of demand\\)\\n")))
        << r.out;
    // An annual study at hourly means has no swings to speak of: no such lines.
    const Result a = dctwin("run " + quote(scenarioFile("day.json", oneDay()).string()));
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(a.out.find("power swing"), std::string::npos) << a.out;
}

TEST_F(Cli, AContingencyOnACoarseGridSaysItsRampsAreNotResolvedInsteadOfNan) {
    // A ramp over 1 s needs samples at most 1 s apart; the pump trip recorded every 60 s
    // printed "ramp over 1 s racks nan MW/s, IT at the grid nan MW/s, utility nan MW/s".
    Json j = dctwin::readJsonFile(kSource / "scenarios/contingency_cdu_pump_trip.json");
    j["study"]["duration_s"] = 180.0;
    j["study"]["output_interval_s"] = 60.0;
    const fs::path scen = scenarioFile("trip60.json", j);
    const Result r =
        dctwin("run " + quote(scen.string()) + " -o " + quote((dir_ / "t.h5").string()));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("nan"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("ramp over 1 s       not resolved: the output interval is longer than "
                         "1 s"),
              std::string::npos)
        << r.out;
    // The swing is max - min of the samples and is printed (the trip's racks go to standby).
    EXPECT_NE(r.out.find("power swing         racks "), std::string::npos) << r.out;
}

TEST_F(Cli, ADesignPointRunPrintsItsFiguresNotNan) {
    // `dctwin run` of a design-point study printed "nan" on every line (no time series).
    Json j = reference();
    j["study"] = {{"kind", "design_point"}};
    const fs::path scen = scenarioFile("dp.json", j);
    const Result r =
        dctwin("run " + quote(scen.string()) + " -o " + quote((dir_ / "d.h5").string()));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("nan"), std::string::npos) << r.out;
    // Milwaukee's ASHRAE 0.4 % cooling dry bulb, 32.4 °C (the README's sizing example), and the
    // design PUE the README quotes, 1.163 (1.154 with 14 coolers before 2026-12-07: the 18
    // counted dry below the pads' switch-over all run their fans at full on the design day).
    EXPECT_NE(r.out.find("32.4 C dry bulb"), std::string::npos) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex("PUE +1\\.16[23]"))) << r.out;
    EXPECT_NE(r.out.find("its setpoint held"), std::string::npos) << r.out;
}

TEST_F(Cli, RunIntoMissingDirectoryFailsBeforeRunningAndWritesNothing) {
    // commands.cpp checks the destinations before a long run: exit 2, nothing written.
    const fs::path scen = scenarioFile("one_day.json", oneDay());
    const fs::path report = dir_ / "no_such_dir" / "report.h5";
    const Result r =
        dctwin("run " + quote(scen.string()) + " -o " + quote(report.string()) + " --quiet");
    expectInputError(r, {"no_such_dir", "does not exist"});
    EXPECT_FALSE(fs::exists(report));
    EXPECT_EQ(r.out, "");
}

TEST_F(Cli, TracesBesideAScenarioRunFromItsFolderAreFound) {
    // A newcomer's layout: scen.json and its trace nv.csv (and a job list naming a trace) in one
    // folder, run as `dctwin validate scen.json` from there. The trace resolved to "nv.csv",
    // still relative, which the workload then looked up in the shipped data:
    // "<data>/./nv.csv: cannot open trace file" (exit 2) for a file next to the scenario.
    fs::copy_file(kSource / "data/traces/nvidia_smi_training_8gpu.csv", dir_ / "nv.csv");
    Json j = dctwin::readJsonFile(kSource / "scenarios/telemetry_replay.json");
    j["workload"]["jobs"][0]["file"] = "nv.csv";
    j["study"]["duration_s"] = 2.0;
    scenarioFile("scen.json", j);
    fs::create_directories(dir_ / "j");
    fs::copy_file(kSource / "data/traces/nvidia_smi_training_8gpu.csv", dir_ / "j/nv.csv");
    std::ofstream(dir_ / "j/jobs.csv")
        << "name,type,racks,file,format,column,quantity,gpu_model\n"
           "replay,trace,64,nv.csv,nvidia_smi,power.draw,power_W,h100_sxm\n";
    Json listed = j;
    listed["workload"].erase("jobs");
    listed["workload"]["jobs_file"] = "j/jobs.csv";
    scenarioFile("listed.json", listed);
    for (const char* name : {"scen.json", "listed.json"}) {
        const Result r = dctwin(std::string("validate ") + name, dir_);
        EXPECT_EQ(r.status, 0) << name << ": " << r.err;
    }
}

TEST_F(Cli, FailedRunLeavesNoReportBehind) {
    // DESIGN.md §5.3: a failed run never leaves a report under the requested name. The
    // scenario fails at build time (unknown heat-rejection type) after the report directory
    // was accepted.
    Json j = oneDay();
    j["cooling"]["heat_rejection"]["type"] = "river_water";
    const fs::path scen = scenarioFile("bad_plant.json", j);
    const fs::path out = dir_ / "out";
    fs::create_directories(out);
    const Result r =
        dctwin("run " + quote(scen.string()) + " -o " + quote((out / "report.h5").string()) +
               " --summary-json " + quote((out / "s.json").string()) + " --quiet");
    expectInputError(r, {"/cooling/heat_rejection/type", "river_water", "cooling_tower"});
    EXPECT_TRUE(fs::is_empty(out)) << "the failed run left files in " << out;
}

TEST_F(Cli, SizePrintsTheSizingTables) {
    // DESIGN.md §5.2: `dctwin size` prints the design point and the sizing tables.
    const fs::path ref = kSource / "scenarios/azure_gb300_64.json";
    const Result r = dctwin("size " + quote(ref.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* s : {"sizing/power", "sizing/cooling", "sizing/water", "design_it_power",
                          "design loading [%]", "ups", "transformer", "cdu", "heat_rejection"}) {
        EXPECT_NE(r.out.find(s), std::string::npos) << s << " missing from:\n" << r.out;
    }
    // A cell without a figure reads "–", not "nan" (the rack loop's flow has no failure
    // loading: it printed "nan" until 2026-12-05), and a check without a relation has no limit
    // (the generator's derated rating printed a limit of 0).
    EXPECT_FALSE(std::regex_search(r.out, std::regex(R"((^|\s)-?nan(\s|$))"))) << r.out;
    bool rack_loop = false, rating = false;
    std::istringstream lines(r.out);
    bool tables = false;
    for (std::string line; std::getline(lines, line);) {
        tables = tables || line == "sizing/power";
        // The tables read in a terminal: the count rules and governing cases follow each table
        // as "count rule: ..." lines instead of widening every row to ~450 characters.
        if (tables && line.find(": ") == std::string::npos) {
            std::size_t columns = 0;
            for (unsigned char c : line) columns += (c & 0xC0) != 0x80;
            EXPECT_LE(columns, 150u) << line;
        }
        const bool row = line.find(": ") == std::string::npos;  // not a count-rule line
        if (row && line.starts_with("rack_loop_flow ")) {
            rack_loop = rack_loop || line.ends_with("–");  // in whichever block the column is
        }
        if (row && line.starts_with("generator_unit_rating ")) {
            rating = true;
            EXPECT_TRUE(line.ends_with("–")) << line;
        }
    }
    EXPECT_TRUE(rack_loop && rating) << r.out;
    // Ratings in the units an engineer reads, per row: the 1,500,000 W UPS in MW, the 2.5 MVA
    // transformer in MVA, a CDU pump's 0.0342 m³/s as 0.0342 × 60,000 = 2052 L/min.
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\nups +static_1500kw +1\.50 +MW )")))
        << r.out;
    EXPECT_TRUE(
        std::regex_search(r.out, std::regex(R"(\ntransformer +liquid_2500kva +2\.50 +MVA )")))
        << r.out;
    EXPECT_TRUE(
        std::regex_search(r.out, std::regex(R"(\ncdu_pump +vertiv_xdu1350 pump +2052 +L/min )")))
        << r.out;
    // Each row's count rule, whole, after its table.
    EXPECT_TRUE(std::regex_search(
        r.out, std::regex(R"(\ncdu +count rule: N=ceil\(64 racks/8 per CDU\)=8, \+1 \(N\+1\);)")))
        << r.out;
    // Each design figure says what it is (the report's description), and a ratio has no "1".
    EXPECT_TRUE(std::regex_search(
        r.out, std::regex(R"(\n  design_pue +1\.16[0-9]* +PUE at the design point\n)")))
        << r.out;
    // --json: the same as machine-readable JSON on stdout.
    const Result js = dctwin("size " + quote(ref.string()) + " --json");
    ASSERT_EQ(js.status, 0) << js.err;
    const Json s = Json::parse(js.out);
    EXPECT_TRUE(s["sizing"]["power"].is_array());
    EXPECT_TRUE(s["sizing"]["cooling"].is_array());
    // A design point is not a simulated peak: its figures are named design_*.
    EXPECT_GT(s["design_it_power_kW"].get<double>(), 8600.0);
    EXPECT_FALSE(s.contains("peak_it_kW"));
}

}  // namespace
