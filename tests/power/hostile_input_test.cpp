// Issue 14, power part: counts read as 64-bit and range-checked, unknown catalog models named
// by JSON path with long names truncated, trace paths that are directories or too long.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.h"
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

TEST(power_Hostile, BinaryTraceGivesAShortReadableMessage) {
    // 20 kB of random bytes as an nvidia-smi log: the header line went into the message whole,
    // raw bytes and control characters and all (a 20,188-byte message for the terminal, the
    // summary JSON and the app). Now escaped (\xNN) and cut after ~400 bytes.
    const fs::path file =
        fs::temp_directory_path() / ("dctwin_binary_" + std::to_string(::getpid()) + ".csv");
    {
        std::ofstream out(file, std::ios::binary);
        out << "name, ";  // read as a header, as the audit's random file was
        std::uint32_t x = 12345;
        for (int i = 0; i < 20000; ++i) {
            x = x * 1664525u + 1013904223u;  // a fixed LCG: the same bytes on every run
            const auto b = static_cast<char>(x >> 24);
            // One 20-kB header field, as the audit's file had at its start.
            out.put(b == '\n' ? '\v' : b == ',' ? ';' : b);
        }
    }
    TraceReadOptions o;
    o.format = "nvidia_smi";
    std::string msg;
    try {
        readTrace(file, o);
    } catch (const InputError& e) {
        msg = e.what();
    }
    fs::remove(file);
    ASSERT_FALSE(msg.empty()) << "no InputError";
    EXPECT_LT(msg.size(), 400 + file.string().size() + 64) << msg.size();
    EXPECT_NE(msg.find("bytes in all)"), std::string::npos) << msg;
    for (unsigned char c : msg) EXPECT_GE(c, 0x20) << "control character in the message";
}

}  // namespace
}  // namespace dctwin::power
