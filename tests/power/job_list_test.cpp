// CSV job lists (power/job_list.h, issue 12): the shipped example placed by hand, a row and
// the same job written in the scenario giving the same load, and every bad row named by file,
// line and column.
#include "power/job_list.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/json.h"
#include "power/workload.h"
#include "test_util.h"

namespace dctwin::power {
namespace {

namespace fs = std::filesystem;
using test::expectInputError;

const fs::path kExample = fs::path(DCTWIN_SOURCE_DIR) / "data/jobs/example_job_mix.csv";
constexpr double kHour = 3600.0;

Workload loadWith(const fs::path& list, const std::string& extra = "") {
    const Json j = parseJson(
        R"({"racks": 64, "tenants": {"research": 0.625, "product": 0.375}, "jobs_file": ")" +
            list.string() + "\"" + extra + "}",
        "workload");
    return Workload::fromJson(JsonView(j, "/workload"), 0, {}, list);
}

fs::path writeList(const std::string& name, const std::string& text) {
    const fs::path p = fs::temp_directory_path() / ("dctwin_job_list_" + name + ".csv");
    std::ofstream(p) << text;
    return p;
}

std::vector<int> range(int a, int b) {
    std::vector<int> v;
    for (int r = a; r < b; ++r) v.push_back(r);
    return v;
}

const std::vector<std::string> kNames = {
    "pretrain-a",  "pretrain-b",  "ablation-01", "ablation-02", "ablation-03",   "ablation-04",
    "finetune-q2", "finetune-h2", "chat",        "embed-batch", "search-rerank", "agents-beta"};

TEST(JobList, ExampleMixIsPlacedFirstFitAsByHand) {
    const Workload w = loadWith(kExample);
    ASSERT_EQ(w.jobs().size(), kNames.size());
    for (std::size_t i = 0; i < kNames.size(); ++i) EXPECT_EQ(w.jobs()[i]->name, kNames[i]);
    // By hand: the tenants' blocks follow their names in order (product, research), so product
    // holds racks 0-23 (37.5 % of 64) and research 24-63. pretrain-a takes 24-55; pretrain-b
    // starts at 4,380 h as a ends, so the same 24-55 are free again. The ablations and
    // fine-tunes follow one another on 56-63 (each starts after the last ends: 0-336,
    // 336-672, 672-1,008, 1,008-1,680, 2,160-4,344, 4,380-8,760 h). chat takes 0-15,
    // embed-batch 16-19, search-rerank 20-23 for the first half year, agents-beta the same
    // 20-23 for the second.
    const std::vector<std::vector<int>> expected = {
        range(24, 56), range(24, 56), range(56, 64), range(56, 64), range(56, 64), range(56, 64),
        range(56, 64), range(56, 64), range(0, 16),  range(16, 20), range(20, 24), range(20, 24)};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(w.racksOf(i), expected[i]) << kNames[i];
    }
    // Rack 59 runs six jobs in the year: one rack group of its own with all six.
    std::size_t jobs_of_59 = 0;
    for (const auto& g : w.rackGroups()) {
        if (std::find(g.racks.begin(), g.racks.end(), 59) != g.racks.end()) {
            jobs_of_59 = g.jobs.size();
        }
    }
    EXPECT_EQ(jobs_of_59, 6u);
    // The same from the rack's side, in start order: the ablations and fine-tunes (2-7);
    // rack 30 runs the two pretrains, rack 21 search-rerank then agents-beta.
    EXPECT_EQ(w.jobsOf(59), (std::vector<std::size_t>{2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(w.jobsOf(30), (std::vector<std::size_t>{0, 1}));
    EXPECT_EQ(w.jobsOf(21), (std::vector<std::size_t>{10, 11}));
    EXPECT_THROW(w.jobsOf(64), ModelError);
    // Between ablation-04's end (1,680 h) and finetune-q2's start (2,160 h) rack 59 runs
    // nothing; during ablation-04 it computes (utilization 1 in the compute phase at t0).
    EXPECT_EQ(w.utilization(59, 1900 * kHour), 0.0);
    EXPECT_EQ(w.utilization(59, 1600 * kHour), 1.0);
}

TEST(JobList, RowGivesTheSameLoadAsTheJobWrittenInTheScenario) {
    const fs::path list =
        writeList("same",
                  "name,type,racks,start_h,duration_h,iteration_period_s,compute_fraction\n"
                  "t,training,3,1.5,10,2.0,0.6\n");
    const Json jl = parseJson(R"({"racks": 4, "jobs_file": "x"})", "w");
    const Json jj = parseJson(R"({"racks": 4, "jobs": [{"name": "t", "type": "training",
        "racks": 3, "start_h": 1.5, "duration_h": 10, "iteration_period_s": 2.0,
        "compute_fraction": 0.6}]})",
                              "w");
    const Workload a = Workload::fromJson(JsonView(jl, "/workload"), 0, {}, list);
    const Workload b = Workload::fromJson(JsonView(jj, "/workload"));
    for (double t : {0.0, 1.5 * kHour + 0.5, 1.5 * kHour + 1.7, 5 * kHour, 12 * kHour}) {
        for (int r = 0; r < 4; ++r) {
            EXPECT_EQ(a.utilization(r, t), b.utilization(r, t)) << r << " at " << t;
            EXPECT_EQ(a.averagedUtilization(r, t), b.averagedUtilization(r, t));
        }
    }
}

TEST(JobList, ATraceRowsFileIsFoundBesideTheList) {
    // A scheduler's export keeps its logs beside its job list: a relative "file" in a row is
    // looked for there first, then in the shipped data (it was looked for in data/ only:
    // "cannot open trace file …/data/gpu_log.csv" for a log next to the list).
    const fs::path dir = fs::temp_directory_path() / "dctwin_job_list_traces";
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(fs::path(DCTWIN_SOURCE_DIR) / "data/traces/nvidia_smi_training_8gpu.csv",
                  dir / "gpu_log.csv");
    const std::string header = "name,type,tenant,racks,file,format,column,quantity,gpu_model\n";
    const fs::path list = dir / "jobs.csv";
    std::ofstream(list) << header
                        << "replay,trace,research,8,gpu_log.csv,nvidia_smi,power.draw,power_W,"
                           "h100_sxm\n";
    const Workload w = loadWith(list);
    ASSERT_EQ(w.jobs().size(), 1u);
    EXPECT_EQ(w.jobs()[0]->name, "replay");
    // Shipped data is still found by its data-relative name.
    std::ofstream(list) << header
                        << "replay,trace,research,8,traces/nvidia_smi_training_8gpu.csv,"
                           "nvidia_smi,power.draw,power_W,h100_sxm\n";
    EXPECT_EQ(loadWith(list).jobs().size(), 1u);
    // Neither beside the list nor in the data: an input error naming the file.
    std::ofstream(list) << header
                        << "replay,trace,research,8,missing_log.csv,nvidia_smi,power.draw,"
                           "power_W,h100_sxm\n";
    expectInputError([&] { loadWith(list); }, {"missing_log.csv"});
    fs::remove_all(dir);
}

TEST(JobList, BadRowsNameFileLineAndColumn) {
    const std::string head = "name,type,tenant,racks,start_h,duration_h,iteration_period_s\n";
    auto load = [&](const char* tag, const std::string& body) {
        const fs::path p = writeList(tag, head + body);
        return [p] { loadWith(p); };
    };
    // A cell of the wrong type: file and line (comments and the header count), the column.
    expectInputError(load("type", "# a comment\na,training,research,abc,0,10,2\n"),
                     {"/workload/jobs_file", "dctwin_job_list_type.csv:3", "\"racks\"", "\"abc\"",
                      "not an integer"});
    // Out of range: the job's own reader, with the row as its path.
    expectInputError(load("range", "a,training,research,0,0,10,2\n"),
                     {"dctwin_job_list_range.csv:2)/racks", "0"});
    // A tenant that has no racks: the choices.
    expectInputError(load("tenant", "a,training,reserch,4,0,10,2\n"),
                     {"csv:2)/tenant", "research", "product"});
    // Too many racks for the tenant at that time: the placement's message, at the row.
    expectInputError(load("full", "a,training,product,20,0,10,2\nb,training,product,8,5,10,2\n"),
                     {"csv:3)/racks", "job 'b' needs 8 racks", "only 4 of them are free"});
    // Fields that do not match the header, duplicate and unknown columns, no jobs.
    expectInputError(load("count", "a,training,research,4,0,10\n"),
                     {"csv:2", "6 fields, the header has 7"});
    expectInputError([] { loadWith(writeList("dup", "name,type,racks,racks\n")); },
                     {"dup.csv:1", "column \"racks\" appears twice"});
    expectInputError(
        [] {
            loadWith(writeList("unknown",
                               "name,type,rackz,duration_h,iteration_period_s\n"
                               "a,training,4,10,2\n"));
        },
        {"unknown.csv:1)", "column \"rackz\" is not a job key", "racks"});
    expectInputError([] { loadWith(writeList("empty", "# nothing but\nname,type,racks\n")); },
                     {"/workload/jobs_file", "has a header but no jobs"});
    // A name used twice: where the first one is.
    expectInputError(load("twice",
                          "a,training,research,4,0,10,2\nb,training,research,4,0,10,2\n"
                          "a,training,research,4,20,10,2\n"),
                     {"csv:4)/name", "job 'a' is defined twice: first at", "csv:2)"});
    // A service with no end that does not fit: "on (no end)", not the internal 1e12 s.
    expectInputError(
        [] {
            loadWith(writeList("noend",
                               "name,type,tenant,racks,start_h\n"
                               "chat,inference,product,30,19.4\n"));
        },
        {"needs 30 racks from 19.4 h on (no end)"});
    expectInputError([] { loadWith("/nonexistent/jobs.csv"); },
                     {"/workload/jobs_file", "cannot open the job list", "/nonexistent/jobs.csv"});
}

TEST(JobList, CellsAreDecimalUtf8TextAndQuotedFieldsAsSpreadsheetsWriteThem) {
    const std::string head = "name,type,tenant,racks,start_h,duration_h,iteration_period_s\n";
    auto load = [&](const char* tag, const std::string& body) {
        const fs::path p = writeList(tag, head + body);
        return [p] { return loadWith(p); };
    };
    // strtod read hexadecimal ("0x10" as 16 racks, "0x1p3" as 8) and stopped at a NUL byte
    // ("8\0 0" as 8): a number is decimal, all of the cell.
    expectInputError(load("hex", "a,training,research,0x10,0,10,2\n"),
                     {"csv:2", "\"racks\"", "\"0x10\" is not an integer"});
    expectInputError(load("hexfloat", "a,training,research,0x1p3,0,10,2\n"),
                     {"csv:2", "\"0x1p3\""});
    static const char kNul[] = "a,training,research,8\0 0,0,10,2\n";
    expectInputError(load("nul", std::string(kNul, sizeof kNul - 1)),
                     {"csv:2", "control character 0x00 at character 22"});
    // Not UTF-8 (a Latin-1 byte): rejected here, not when the summary is written at the end of
    // the run (it was: exit 1 after the whole simulation, with the JSON library's message).
    expectInputError(load("latin1", "caf\xe9,training,research,4,0,10,2\n"),
                     {"csv:2", "byte 0xE9 at character 4 is not UTF-8"});
    // Old Mac line ends: one long line with carriage returns in it, said so.
    expectInputError([] { loadWith(writeList("cr", "name,type,racks\ra,training,4\r")); },
                     {"cr.csv:1", "lone carriage return"});
    // A spreadsheet's quoted cells: text with a comma, a doubled quote, a quoted number.
    const Workload w =
        load("quoted", "\"ablation, \"\"wide\"\"\",training,research,\"4\",0,10,2\n")();
    ASSERT_EQ(w.jobs().size(), 1u);
    EXPECT_EQ(w.jobs()[0]->name, "ablation, \"wide\"");
    EXPECT_EQ(w.racksOf(0).size(), 4u);
    expectInputError(load("open", "\"a,training,research,4,0,10,2\n"),
                     {"csv:2", "quote at character 1 is not closed"});
    expectInputError(load("after", "\"a\"b,training,research,4,0,10,2\n"),
                     {"csv:2", "text after the closing quote"});
}

}  // namespace
}  // namespace dctwin::power
