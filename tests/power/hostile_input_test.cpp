// Issue 14, power part: counts read as 64-bit and range-checked, unknown catalog models named
// by JSON path with long names truncated, trace paths that are directories or too long.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/json.h"
#include "power/sizing.h"
#include "power/trace.h"
#include "power/workload.h"
#include "test_util.h"

namespace dctwin::power {
namespace {

namespace fs = std::filesystem;
using test::catalog;
using test::expectInputError;

TEST(power_Hostile, JobRacksAt2To32DoNotWrap) {
    // Reported: a job's "racks" 4294967304 ran as 8.
    const Json j = parseJson(R"({"racks": 16, "jobs": [{"name": "t", "type": "inference",
        "racks": 4294967304}]})",
                             "w");
    expectInputError([&] { Workload::fromJson(JsonView(j, "/workload")); },
                     {"/workload/jobs/0/racks", "4294967304", "between 1 and 1000000"});
    const Json k = parseJson(R"({"racks": 4294967297, "jobs": []})", "w");
    expectInputError([&] { Workload::fromJson(JsonView(k, "/workload")); },
                     {"/workload/racks", "4294967297"});
}

TEST(power_Hostile, RacksPerRowAt2To32DoNotWrap) {
    SizingInput in;
    const Json j = parseJson(R"({"racks_per_row": 4294967304})", "s");
    expectInputError([&] { in.readJson(JsonView(j, "/power")); },
                     {"/power/racks_per_row", "4294967304", "between 1 and 100"});
    const Json f = parseJson(R"({"feeds_per_path": 2.5})", "s");
    expectInputError([&] { in.readJson(JsonView(f, "/power")); },
                     {"/power/feeds_per_path", "expected an integer"});
}

TEST(power_Hostile, UnknownUpsGeneratorBessModelIsNamedByPathAndTruncated) {
    // Reported: an unknown ups, generators or bess model had no JSON path, and a 1,000,000-
    // character value was echoed in full.
    const std::string huge(1'000'000, 'u');
    for (const char* group : {"ups", "generators", "bess", "transformers"}) {
        SizingInput in;
        in.racks = 8;
        in.rack = catalog().rack("gb300_nvl72");
        Json j = Json::object();
        j[group] = {{"model", huge}};
        in.readJson(JsonView(j, "/power"));
        try {
            sizeElectrical(in, catalog());
            ADD_FAILURE() << group << ": expected an InputError";
        } catch (const InputError& e) {
            const std::string msg = e.what();
            EXPECT_NE(msg.find(std::string("/power/") + group + "/model"), std::string::npos)
                << msg.substr(0, 300);
            EXPECT_NE(msg.find("(1000000 characters)"), std::string::npos) << msg.substr(0, 300);
            EXPECT_LT(msg.size(), 1000u);
        }
    }
}

TEST(power_Hostile, TracePathThatIsADirectoryOrTooLong) {
    const fs::path dir = fs::temp_directory_path() / ("dctwin_trace_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    expectInputError([&] { readCsvTrace(dir); }, {dir.string(), "is a directory"});
    expectInputError([&] { readCornellTrace(dir); }, {"is a directory"});
    const fs::path longer = dir / (std::string(300, 'x') + ".csv");  // NAME_MAX is 255
    expectInputError([&] { readCsvTrace(longer); }, {"cannot open trace file", "characters)"});
    const fs::path deeper = std::string(5000, 'y') + ".csv";  // beyond PATH_MAX
    expectInputError([&] { readCsvTrace(deeper); }, {"cannot open trace file"});
    fs::remove_all(dir);
}

}  // namespace
}  // namespace dctwin::power
