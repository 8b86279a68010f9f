// Issue 14 through the executable: every reported case rebuilt, each expecting exit 2 with a
// message that says where (bad input), or exit 1 with earlier outputs intact (a failing disk),
// never a signal.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/json.h"

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

std::vector<std::string> entries(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

class Reliability : public ::testing::Test {
protected:
    struct Result {
        int status = -1;  // exit status; 128 + n for signal n
        std::string out, err;
    };

    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("dctwin_rel_" + std::to_string(::getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        for (const auto& m : mounts_)
            std::system(("umount " + quote(m.string()) + " 2>/dev/null").c_str());
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    Result dctwin(const std::string& args) const {
        const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
        const std::string cmd = quote(DCTWIN_EXE) + " " + args + " >" + quote(out.string()) +
                                " 2>" + quote(err.string()) + " </dev/null";
        const int rc = std::system(cmd.c_str());
        Result r;
        r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
        r.out = slurp(out);
        r.err = slurp(err);
        fs::remove(out);
        fs::remove(err);
        return r;
    }
    fs::path scenarioFile(const std::string& name, const Json& j) const {
        std::ofstream(dir_ / name) << j.dump(2);
        return dir_ / name;
    }
    fs::path textFile(const std::string& name, const std::string& text) const {
        std::ofstream(dir_ / name, std::ios::binary) << text;
        return dir_ / name;
    }
    static Json reference() {
        return dctwin::readJsonFile(kSource / "scenarios/azure_gb300_64.json");
    }
    static Json oneHour() {
        Json j = reference();
        j["study"] = {
            {"kind", "annual"}, {"start", "07-15"}, {"hours", 1}, {"output_interval_s", 600}};
        return j;
    }
    static void expectInputError(const Result& r, std::initializer_list<std::string> fragments) {
        EXPECT_EQ(r.status, 2) << "stderr: " << r.err.substr(0, 2000);
        for (const auto& f : fragments) {
            EXPECT_NE(r.err.find(f), std::string::npos)
                << "stderr '" << r.err.substr(0, 2000) << "' lacks '" << f << "'";
        }
        EXPECT_LT(r.err.size(), 4000u) << "messages quote long values truncated";
    }
    fs::path mountTmpfs(const std::string& name, int kib, const std::string& extra = "") {
        const fs::path m = dir_ / name;
        fs::create_directories(m);
        const std::string cmd = "mount -t tmpfs -o size=" + std::to_string(kib) + "k" + extra +
                                " tmpfs " + quote(m.string()) + " 2>/dev/null";
        if (std::system(cmd.c_str()) != 0) return {};
        mounts_.push_back(m);
        return m;
    }

    fs::path dir_;
    std::vector<fs::path> mounts_;
};

// ---- bad input: exit 2, saying where -------------------------------------------------------

TEST_F(Reliability, DeeplyNestedValueIsRejectedNotACrash) {
    // Reported: ~60,000 nested objects in /workload/jobs/0/name → SIGSEGV in validate and run.
    std::string text = reference().dump(2);
    const std::string key = "\"name\": \"Azure";
    const std::size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos);
    std::string deep;
    for (int i = 0; i < 60000; ++i) deep += "{\"a\":";
    deep += "1";
    deep += std::string(60000, '}');
    text.replace(at, key.size(), "\"name\": " + deep + ", \"description_x\": \"Azure");
    const fs::path f = textFile("deep.json", text);
    for (const char* cmd : {"validate ", "run ", "size "}) {
        expectInputError(dctwin(cmd + quote(f.string())),
                         {"deep.json:", "nested more than 256 levels"});
    }
}

TEST_F(Reliability, NumberOverflowExitsTwoWithFileAndLine) {
    std::string text = reference().dump(2);
    const std::string key = "\"racks_per_cdu\": 8";
    const std::size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, key.size(), "\"racks_per_cdu\": 1e400");
    const fs::path f = textFile("overflow.json", text);
    const Result r = dctwin("validate " + quote(f.string()));
    expectInputError(r, {"overflow.json:", "1e400", "out of range"});
    EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
}

TEST_F(Reliability, NonUtf8ScenarioIsAClearInputError) {
    std::string text = reference().dump(2);
    text.insert(text.find("Azure"), "\xFF");
    expectInputError(dctwin("validate " + quote(textFile("latin.json", text).string())),
                     {"latin.json:", "not valid UTF-8"});
}

TEST_F(Reliability, ScenarioPathThatIsADirectoryOrTooLong) {
    // Reported: "scenario.json:1:1: syntax error ... unexpected end of input".
    fs::create_directories(dir_ / "scenario.json");
    for (const char* cmd : {"validate ", "run ", "size "}) {
        expectInputError(dctwin(cmd + quote((dir_ / "scenario.json").string())),
                         {"scenario.json", "is a directory"});
    }
    expectInputError(
        dctwin("validate " + quote((dir_ / (std::string(300, 's') + ".json")).string())),
        {"cannot read scenario file", "File name too long"});
    expectInputError(dctwin("sweep " + quote((dir_ / "scenario.json").string())),
                     {"is a directory"});
}

TEST_F(Reliability, WeatherPathTooLongExitsTwo) {
    // Reported: "failed: filesystem error: status: File name too long", exit 1.
    Json j = reference();
    j["site"]["weather"] = std::string(5000, 'w') + ".epw";
    const Result r = dctwin("validate " + quote(scenarioFile("w.json", j).string()));
    expectInputError(r, {"longer than the system allows"});
}

TEST_F(Reliability, IntegersAt2To32DoNotWrap) {
    // Reported: racks_per_cdu 4294967304 ran as 8, an event's cdu 4294967296 hit CDU 0.
    Json j = reference();
    j["cooling"]["cdu"]["racks_per_cdu"] = 4294967304LL;
    expectInputError(dctwin("validate " + quote(scenarioFile("rpc.json", j).string())),
                     {"racks_per_cdu", "4294967304"});
    Json c = dctwin::readJsonFile(kSource / "scenarios/contingency_cdu_pump_trip.json");
    ASSERT_TRUE(c["events"][0].contains("cdu"));
    c["events"][0]["cdu"] = 4294967296LL;
    expectInputError(dctwin("validate " + quote(scenarioFile("cdu.json", c).string())),
                     {"/events/0/cdu", "4294967296"});
    c["events"][0]["cdu"] = 0;
    c["events"][0]["pumps"] = 4294967297LL;
    expectInputError(dctwin("validate " + quote(scenarioFile("pumps.json", c).string())),
                     {"/events/0/pumps", "4294967297"});
}

TEST_F(Reliability, LongUnknownCatalogNameIsTruncated) {
    Json j = reference();
    j["power"]["ups"]["model"] = std::string(1'000'000, 'u');
    const Result r = dctwin("validate " + quote(scenarioFile("ups.json", j).string()));
    expectInputError(r, {"unknown ups model", "(1000000 characters)"});
}

// ---- outputs: checked before the run, one transaction -------------------------------------

TEST_F(Reliability, OutputThatIsADirectoryFailsBeforeTheRun) {
    const fs::path scen = scenarioFile("s.json", oneHour());
    fs::create_directories(dir_ / "summary.json");
    fs::create_directories(dir_ / "report.h5");
    std::ofstream(dir_ / "csvfile") << "x";
    for (const std::string& args : std::vector<std::string>{
             "-o " + quote((dir_ / "report.h5").string()),
             "--summary-json " + quote((dir_ / "summary.json").string()),
             "--csv " + quote((dir_ / "csvfile").string()),
             "-o " + quote((dir_ / (std::string(300, 'r') + ".h5")).string())}) {
        const Result r = dctwin("run " + quote(scen.string()) + " " + args);
        EXPECT_EQ(r.status, 2) << args << ": " << r.err;
        EXPECT_EQ(r.err.find('%'), std::string::npos) << "the run started: " << r.err;
        EXPECT_EQ(r.out, "");
    }
}

TEST_F(Reliability, OutputsNeverReplaceTheScenarioADeviceOrALink) {
    // Outputs are written beside the destination and renamed over it. `run s.json -o s.json`
    // wrote the report over the scenario; `-o /dev/null` (as root) left a regular file where
    // the device was (a named pipe here); a symbolic link became a file and its target was never
    // written. Each is refused before the run, and the scenario, the device and the link stay as
    // they were.
    const fs::path scen = scenarioFile("s.json", oneHour());
    const std::string before = slurp(scen);
    std::ofstream(dir_ / "target.json") << "mine";
    fs::create_symlink(dir_ / "target.json", dir_ / "link.json");
    // A named pipe stands for /dev/null: the same kind of destination, and a regression here
    // replaces a file of the test's own folder, not the machine's device.
    const fs::path fifo = dir_ / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string s = quote(scen.string());
    const std::string same = quote((dir_ / "." / "s.json").string());
    for (const auto& [args, fragments] :
         std::vector<std::pair<std::string, std::vector<std::string>>>{
             {"-o " + s, {"report", "would overwrite the scenario"}},
             {"--summary-json " + same, {"summary", "would overwrite the scenario"}},
             {"-o " + quote(fifo.string()), {"pipe", "not a regular file"}},
             {"--summary-json " + quote((dir_ / "link.json").string()),
              {"link.json", "symbolic link", "target.json"}}}) {
        const Result r = dctwin("run " + s + " " + args);
        EXPECT_EQ(r.status, 2) << args << ": " << r.err;
        for (const std::string& f : fragments) {
            EXPECT_NE(r.err.find(f), std::string::npos) << args << ": " << r.err;
        }
        EXPECT_EQ(r.err.find('%'), std::string::npos) << "the run started: " << r.err;
    }
    EXPECT_EQ(slurp(scen), before);
    EXPECT_TRUE(fs::is_fifo(fifo));
    EXPECT_TRUE(fs::is_symlink(dir_ / "link.json"));
    EXPECT_EQ(slurp(dir_ / "target.json"), "mine");
    const Result schema = dctwin("schema -o " + quote(fifo.string()));
    EXPECT_EQ(schema.status, 2) << schema.err;
    EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST_F(Reliability, OutputsNeverReplaceAFileTheScenarioReads) {
    // `run s.json -o w.epw` (w.epw the scenario's weather file) replaced the weather file with
    // the report, exit 0; `-o nv.csv` a trace it replays, `--summary-json jobs.csv` its job
    // list. Each is refused before the run and the file stays as it was.
    fs::copy_file(kSource / "data/weather/USA_WI_Milwaukee-Mitchell.Intl.AP.726400_TMY3.epw",
                  dir_ / "w.epw");
    fs::copy_file(kSource / "data/traces/nvidia_smi_training_8gpu.csv", dir_ / "nv.csv");
    std::ofstream(dir_ / "jobs.csv") << "name,type,racks,file,format,column,quantity,gpu_model\n"
                                        "replay,trace,64,nv.csv,nvidia_smi,power.draw,power_W,"
                                        "h100_sxm\n";
    Json j = oneHour();
    j["site"]["weather"] = (dir_ / "w.epw").string();
    j["workload"] = {{"jobs_file", (dir_ / "jobs.csv").string()}};
    const std::string s = quote(scenarioFile("s.json", j).string());
    struct Case {
        std::string option;
        fs::path file;
        std::string kind;
    };
    for (const Case& c : {Case{"-o", dir_ / "w.epw", "the weather file"},
                          Case{"-o", dir_ / "." / "nv.csv", "the trace of job 'replay'"},
                          Case{"--summary-json", dir_ / "jobs.csv", "the job list"}}) {
        const std::string before = slurp(c.file);
        ASSERT_FALSE(before.empty()) << c.file;
        const Result r = dctwin("run " + s + " " + c.option + " " + quote(c.file.string()));
        EXPECT_EQ(r.status, 2) << c.file << ": " << r.err;
        EXPECT_NE(r.err.find("would overwrite " + c.kind), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find('%'), std::string::npos) << "the run started: " << r.err;
        EXPECT_EQ(slurp(c.file), before) << c.file;
    }
}

TEST_F(Reliability, ReadOnlyOutputFolderFailsBeforeTheRun) {
    const fs::path ro = mountTmpfs("ro", 256, ",ro");
    if (ro.empty()) GTEST_SKIP() << "cannot mount a tmpfs here (needs root)";
    const fs::path scen = scenarioFile("s.json", oneHour());
    for (const std::string& args :
         std::vector<std::string>{"-o " + quote((ro / "r.h5").string()),
                                  "--summary-json " + quote((ro / "s.json").string()),
                                  "--csv " + quote((ro / "csv").string())}) {
        const Result r = dctwin("run " + quote(scen.string()) + " " + args);
        expectInputError(r, {"not writable"});
        EXPECT_EQ(r.err.find('%'), std::string::npos) << "the run started: " << r.err;
    }
}

TEST_F(Reliability, FullFolderForTheSummaryKeepsTheOldReportAndLeavesNothing) {
    // Reported: a failing --summary-json or --csv left report.h5 written (replacing an earlier
    // one), summary.json.tmp and an empty csv/ behind; a full disk under the report crashed at
    // exit (139).
    const fs::path full = mountTmpfs("full", 16);
    if (full.empty()) GTEST_SKIP() << "cannot mount a tmpfs here (needs root)";
    {
        std::ofstream fill(full / "filler", std::ios::binary);
        fill << std::string(16 * 1024, 'f');
    }
    const fs::path scen = scenarioFile("s.json", oneHour());
    const fs::path out = dir_ / "out";
    fs::create_directories(out);
    std::ofstream(out / "report.h5") << "the earlier report";
    // A temporary of a killed earlier run: removed by this run.
    pid_t dead = ::fork();
    if (dead == 0) ::_exit(0);
    ::waitpid(dead, nullptr, 0);
    std::ofstream(out / ("report.h5.tmp." + std::to_string(dead))) << "stale";

    Result r = dctwin("run " + quote(scen.string()) + " -o " + quote((out / "report.h5").string()) +
                      " --csv " + quote((full / "csv").string()) + " --quiet");
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("csv"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(out / "report.h5"), "the earlier report");
    EXPECT_EQ(entries(out), std::vector<std::string>{"report.h5"});
    EXPECT_EQ(entries(full), std::vector<std::string>{"filler"});

    // The report itself onto the full folder: exit 1 with a message, not a crash.
    r = dctwin("run " + quote(scen.string()) + " -o " + quote((full / "report.h5").string()) +
               " --summary-json " + quote((out / "s.json").string()) + " --quiet");
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("report.h5"), std::string::npos) << r.err;
    EXPECT_EQ(entries(full), std::vector<std::string>{"filler"});
    EXPECT_EQ(entries(out), std::vector<std::string>{"report.h5"});

    // And with room, everything is written.
    fs::remove(full / "filler");
    r = dctwin("run " + quote(scen.string()) + " -o " + quote((out / "report.h5").string()) +
               " --summary-json " + quote((out / "s.json").string()) + " --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(slurp(out / "report.h5"), "the earlier report");
    EXPECT_EQ(entries(out), (std::vector<std::string>{"report.h5", "s.json"}));
}

// ---- sweeps --------------------------------------------------------------------------------

TEST_F(Reliability, SweepCaseNamesMustBeFileNames) {
    // Reported: names "a/b" and "../escaped" gave "3 of 3 succeeded", never wrote a/b's summary
    // and wrote escaped.summary.json outside the output folder.
    fs::copy_file(kSource / "scenarios/azure_gb300_64.json", dir_ / "base.json");
    for (const char* name : {"a/b", "../escaped", "", "..", "c\\\\d"}) {
        const std::string sweep = std::string(R"({"base": "base.json", "cases": [{"name": "ok"},
            {"name": ")") + name + R"("}]})";
        const Result r = dctwin("sweep " + quote(textFile("sw.json", sweep).string()) + " -o " +
                                quote((dir_ / "out").string()));
        expectInputError(r, {"sw.json", "/cases/1/name", "case name"});
        EXPECT_FALSE(fs::exists(dir_ / "escaped.summary.json"));
    }
    const Result dup =
        dctwin("sweep " +
               quote(textFile("dup.json",
                              R"({"base": "base.json", "cases": [{"name": "x"}, {"name": "x"}]})")
                         .string()));
    expectInputError(dup, {"dup.json: /cases/1/name: 'x' is already the name of /cases/0"});
}

TEST_F(Reliability, BrokenSweepMemberIsNamed) {
    // Reported: a member with an invalid study failed the whole sweep without naming it.
    fs::copy_file(kSource / "scenarios/azure_gb300_64.json", dir_ / "base.json");
    const std::string sweep = R"({"base": "base.json", "cases": [{"name": "good"},
        {"name": "broken", "set": {"/study/kind": "yearly"}}]})";
    const Result r = dctwin("sweep " + quote(textFile("sw.json", sweep).string()));
    expectInputError(r, {"case 'broken'", "/study/kind", "yearly"});
}

TEST_F(Reliability, SweepOutputIsCheckedBeforeTheRunsAndWrittenWhole) {
    // Reported: error.txt and sweep_summary.* were written unchecked. A read-only folder now
    // fails before the first case (exit 2); written files replace an earlier sweep's files for
    // the same case, and no temporary is left.
    Json base = oneHour();
    std::ofstream(dir_ / "base.json") << base.dump(2);
    const fs::path sw =
        textFile("sw.json", R"({"base": "base.json", "cases": [{"name": "a"}, {"name": "b"}]})");
    const fs::path ro = mountTmpfs("ro", 256, ",ro");
    if (!ro.empty()) {
        const Result r = dctwin("sweep " + quote(sw.string()) + " -o " + quote(ro.string()));
        expectInputError(r, {"sweep output folder", "not writable"});
        EXPECT_EQ(r.err.find('%'), std::string::npos) << "a case ran: " << r.err;
    }
    const fs::path out = dir_ / "out";
    fs::create_directories(out);
    std::ofstream(out / "a.error.txt") << "case 'a' failed in an earlier sweep";
    const Result r =
        dctwin("sweep " + quote(sw.string()) + " -o " + quote(out.string()) + " --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(entries(out),
              (std::vector<std::string>{"a.summary.json", "b.summary.json", "sweep_summary.csv",
                                        "sweep_summary.h5", "sweep_summary.json"}));
    const Json table = Json::parse(slurp(out / "sweep_summary.json"));
    ASSERT_EQ(table.size(), 2u);
    EXPECT_EQ(table[0]["case"], "a");
    EXPECT_GT(table[1]["it_energy_MWh"].get<double>(), 0.0);
}

TEST_F(Reliability, RunLeavingTheModelRangeNamesTimeStateAndLastEvent) {
    // Reported: a run that drove the coolant past its table failed with "coolant PG25:
    // enthalpy requested at 100.00 °C" alone. Rebuilt: the pump-trip contingency with the
    // GPUs' thermal trip moved to 150 °C (so nothing stops the heating): both pumps of CDU 0
    // stop at 60 s and the stagnant rack loop boils off its table a few minutes later.
    Json j = dctwin::readJsonFile(kSource / "scenarios/contingency_cdu_pump_trip.json");
    j["site"]["weather"] = (kSource / j["site"]["weather"].get<std::string>()).string();
    j["it"]["racks"][0]["throttle_temp_C"] = 140;
    j["it"]["racks"][0]["shutdown_temp_C"] = 150;
    j["study"]["duration_s"] = 400;
    const fs::path scen = scenarioFile("hot.json", j);
    const Result r = dctwin("run " + quote(scen.string()) + " -o " +
                            quote((dir_ / "r.h5").string()) + " --quiet");
    EXPECT_EQ(r.status, 1) << r.err;  // the simulation failed; the input was valid
    for (const char* fragment :
         {"at 07-15 15:0", "s into the study", "last event before it: cdu_pump_trip at 60 s",
          "/events/0", "component 'rl_", "junction_temp = ", "flow = 0 m3/s", "coolant PG25"}) {
        EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
    }
    EXPECT_FALSE(fs::exists(dir_ / "r.h5"));
    EXPECT_EQ(entries(dir_), (std::vector<std::string>{"hot.json"}));
}

}  // namespace
