// Report writers: HDF5 round trip through the reader (values, units, attributes, summary,
// tables, chunking/compression), atomic writes that leave nothing behind on failure, CSV
// content, and the null writer.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/io/hdf5_reader.h"
#include "core/io/report_writer.h"

namespace dctwin {
namespace {

/// A recorded series as a plain vector, to compare with what the reader returns.
std::vector<double> plain(const SampleVector& v) { return {v.begin(), v.end()}; }

namespace fs = std::filesystem;

/// A fresh directory per test, removed afterwards.
class IoTest : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               (std::string("dctwin_io_test_") + std::to_string(::getpid()) + "_" + info->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::vector<std::string> entries(const fs::path& dir) const {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename());
        std::sort(names.begin(), names.end());
        return names;
    }

    fs::path dir_;
};

std::string readText(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

Report sampleReport(std::size_t samples = 10000) {
    Report r;
    r.attributes = {{"generator", "dctwin"},
                    {"version", "0.1.0"},
                    {"git_commit", "abc123"},
                    {"created_utc", "2026-07-01T00:00:00Z"},
                    {"scenario_name", "64 racks, \"quoted\""}};
    r.texts["scenario/input"] = R"({"name": "x"})";
    r.texts["scenario/resolved"] = R"({"name": "x", "cooling": {"coolant": "PG25"}})";
    r.summary = {{"pue", 1.12, "1", "power usage effectiveness"},
                 {"it_energy_MWh", 42.5, "MWh"},
                 {"max_gpu_temp_C", 71.0, "C"}};

    Table power;
    power.path = "sizing/power";
    power.columns.push_back(
        {"element", "", std::vector<std::string>{"UPS", "PDU, row A", "Ω bus"}});
    power.columns.push_back({"rating", "W", std::vector<double>{1.5e6, 4.0e5, 2.5e6}});
    power.columns.push_back({"count", "1", std::vector<double>{4, 16, 2}});
    power.columns.push_back({"redundancy", "", std::vector<std::string>{"4N/3", "", "N+1"}});
    r.tables.push_back(power);

    ResultSet& ts = r.timeseries;
    ts.start_iso8601 = "2026-07-01T00:00:00";
    for (std::size_t i = 0; i < samples; ++i) ts.time.push_back(60.0 * static_cast<double>(i));
    Channel it{"power", "it_power", "W", "IT power of all racks", {}};
    Channel supply{"cooling", "tcs_supply_temp", "K", "", {}};
    Channel gpu{"rack/r01", "gpu_max_temp", "K", "hottest GPU in rack r01", {}};
    for (std::size_t i = 0; i < samples; ++i) {
        const double x = static_cast<double>(i);
        it.values.push_back(8.4e6 + 1e5 * std::sin(x / 50.0));
        supply.values.push_back(308.15 + 0.01 * x / static_cast<double>(samples));
        gpu.values.push_back(340.0 + std::cos(x / 10.0));
    }
    ts.channels = {it, supply, gpu};
    return r;
}

TEST_F(IoTest, Hdf5RoundTripValuesAndUnits) {
    const Report r = sampleReport();
    const fs::path file = dir_ / "report.h5";
    makeHdf5Writer()->write(r, file);
    EXPECT_EQ(entries(dir_), std::vector<std::string>{"report.h5"});

    hdf5::Reader reader(file);
    EXPECT_EQ(reader.readDataset("/timeseries/time"), plain(r.timeseries.time));
    EXPECT_EQ(reader.readStringAttribute("/timeseries/time", "units"), "s");
    EXPECT_EQ(reader.readStringAttribute("/timeseries/time", "start"), "2026-07-01T00:00:00");
    for (const Channel& c : r.timeseries.channels) {
        const std::string path = "/timeseries/" + c.group + "/" + c.name;
        EXPECT_EQ(reader.readDataset(path), plain(c.values)) << path;
        EXPECT_EQ(reader.readStringAttribute(path, "units"), c.unit) << path;
        if (c.description.empty()) {
            EXPECT_FALSE(hdf5::exists(file, path + "/description"));
            const auto attrs = reader.listAttributes(path);
            EXPECT_EQ(std::count(attrs.begin(), attrs.end(), "description"), 0);
        } else {
            EXPECT_EQ(reader.readStringAttribute(path, "description"), c.description);
        }
    }
    // Channels come back in the order the model declared them.
    EXPECT_EQ(reader.listChildren("/timeseries"),
              (std::vector<std::string>{"time", "power", "cooling", "rack"}));
    EXPECT_EQ(reader.listChildren("/timeseries/rack"), std::vector<std::string>{"r01"});
    // The free functions read the same thing.
    EXPECT_EQ(hdf5::readDataset(file, "timeseries/power/it_power"),
              plain(r.timeseries.channels[0].values));
}

TEST_F(IoTest, Hdf5EveryTimeseriesDatasetHasUnits) {
    const fs::path file = dir_ / "report.h5";
    makeHdf5Writer()->write(sampleReport(100), file);
    hdf5::Reader reader(file);
    std::size_t datasets = 0;
    std::vector<std::string> pending{"/timeseries"};
    while (!pending.empty()) {
        const std::string group = pending.back();
        pending.pop_back();
        for (const std::string& child : reader.listChildren(group)) {
            const std::string path = group + "/" + child;
            const auto attrs = reader.listAttributes(path);
            if (std::find(attrs.begin(), attrs.end(), "units") != attrs.end()) {
                EXPECT_FALSE(reader.readStringAttribute(path, "units").empty()) << path;
                ++datasets;
            } else {
                pending.push_back(path);  // a group
                EXPECT_FALSE(reader.listChildren(path).empty()) << path << " has no units";
            }
        }
    }
    EXPECT_EQ(datasets, 7u);  // time, 3 channels, and the time coordinate of their 3 groups
}

// NetCDF-4/CF (issue 17): every group of series has its own time coordinate, a dimension
// scale every series of the group is attached to, dated from the study start.
TEST_F(IoTest, Hdf5GroupsHaveCfTimeCoordinates) {
    const Report r = sampleReport(100);
    const fs::path file = dir_ / "report.h5";
    makeHdf5Writer()->write(r, file);
    hdf5::Reader reader(file);
    EXPECT_EQ(reader.dimensionScales("/timeseries/time"), std::vector<std::string>{""});
    for (const std::string group : {"power", "cooling", "rack/r01"}) {
        const std::string time = "/timeseries/" + group + "/time";
        SCOPED_TRACE(time);
        EXPECT_EQ(reader.readDataset(time), plain(r.timeseries.time));
        EXPECT_EQ(reader.readStringAttribute(time, "units"), "seconds since 2026-07-01T00:00:00");
        EXPECT_EQ(reader.readStringAttribute(time, "calendar"), "proleptic_gregorian");
        EXPECT_EQ(reader.readStringAttribute(time, "standard_name"), "time");
        EXPECT_EQ(reader.readStringAttribute(time, "axis"), "T");
        EXPECT_EQ(reader.readStringAttribute(time, "CLASS"), "DIMENSION_SCALE");
    }
    for (const Channel& c : r.timeseries.channels) {
        const std::string path = "/timeseries/" + c.group + "/" + c.name;
        EXPECT_EQ(reader.dimensionScales(path),
                  std::vector<std::string>{"/timeseries/" + c.group + "/time"});
    }
    EXPECT_EQ(reader.readStringAttribute("/timeseries/power/it_power", "long_name"),
              "it power: IT power of all racks");
    EXPECT_EQ(reader.readStringAttribute("/timeseries/cooling/tcs_supply_temp", "long_name"),
              "tcs supply temp");
}

/// Three rack groups' channels "racks/<label>/<name>" and the array that packs them.
Report arrayReport(std::size_t samples) {
    Report r = sampleReport(samples);
    ChannelArray a;
    a.group = "racks";
    a.dimension = "rack_group";
    a.labels = {"g0_train", "g0_infer", "g1_idle"};
    a.coordinates = {
        {"rack_count", "1", "racks the group stands for", std::vector<std::int64_t>{32, 24, 8}},
        {"rack_model", "", "rack model",
         std::vector<std::string>{"gb300_nvl72", "gb300_nvl72", "gb300_nvl72"}},
        {"power_share", "1", "share of the hall", std::vector<double>{0.5, 0.375, 0.125}}};
    a.variables = {{"junction_temp", "GPU junction"}, {"it_power", "IT power of the group"}};
    for (std::size_t j = 0; j < a.labels.size(); ++j) {
        Channel t{a.channelGroup(j), "junction_temp", "K", "GPU junction", {}};
        Channel p{a.channelGroup(j), "it_power", "W", "IT power of the group", {}};
        for (std::size_t i = 0; i < samples; ++i) {
            // Column j, sample i distinguishable: a transposed write would show.
            t.values.push_back(330.0 + static_cast<double>(j) + 1e-3 * static_cast<double>(i));
            p.values.push_back(1e5 * static_cast<double>(j + 1) + static_cast<double>(i));
        }
        r.timeseries.channels.push_back(std::move(t));
        r.timeseries.channels.push_back(std::move(p));
    }
    r.timeseries.arrays.push_back(std::move(a));
    return r;
}

// Issue 17: an array's columns are one 2-D [time, rack_group] dataset per variable, with the
// group's CF time on axis 0 and an integer rack_group scale on axis 1, and the column names
// and further coordinates as 1-D datasets on that axis; the 1-D per-group series are gone.
TEST_F(IoTest, Hdf5ArrayIsTwoDimensionalWithDimensionScales) {
    const std::size_t n = 50;
    const Report r = arrayReport(n);
    const fs::path file = dir_ / "report.h5";
    makeHdf5Writer()->write(r, file);
    hdf5::Reader reader(file);
    EXPECT_FALSE(reader.exists("/timeseries/racks/g0_train"));
    EXPECT_EQ(reader.listChildren("/timeseries/racks"),
              (std::vector<std::string>{"time", "rack_group", "rack_group_name", "rack_count",
                                        "rack_model", "power_share", "junction_temp", "it_power"}));
    const std::string v = "/timeseries/racks/junction_temp";
    EXPECT_EQ(reader.shape(v), (std::vector<std::uint64_t>{n, 3}));
    EXPECT_EQ(reader.dimensionScales(v),
              (std::vector<std::string>{"/timeseries/racks/time", "/timeseries/racks/rack_group"}));
    const std::vector<double> values = reader.readDataset(v);
    ASSERT_EQ(values.size(), n * 3);
    for (std::size_t j = 0; j < 3; ++j) {
        const Channel& c = r.timeseries.at(r.timeseries.arrays[0].channelGroup(j), "junction_temp");
        for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(values[i * 3 + j], c.values[i]);
    }
    EXPECT_EQ(reader.readStringAttribute(v, "units"), "K");
    EXPECT_EQ(reader.readStringAttribute(v, "long_name"), "junction temp: GPU junction");
    EXPECT_EQ(reader.readStringAttribute(v, "coordinates"),
              "rack_group_name rack_count rack_model power_share");
    EXPECT_TRUE(reader.storage(v).chunked);
    EXPECT_TRUE(reader.storage(v).deflate);
    EXPECT_EQ(reader.readStringAttribute("/timeseries/racks/time", "units"),
              "seconds since 2026-07-01T00:00:00");
    EXPECT_EQ(reader.readStringAttribute("/timeseries/racks/rack_group", "CLASS"),
              "DIMENSION_SCALE");
    EXPECT_EQ(reader.readDataset("/timeseries/racks/rack_group"),
              (std::vector<double>{0.0, 1.0, 2.0}));
    EXPECT_EQ(reader.readStringArray("/timeseries/racks/rack_group_name"),
              (std::vector<std::string>{"g0_train", "g0_infer", "g1_idle"}));
    EXPECT_EQ(reader.readDataset("/timeseries/racks/rack_count"),
              (std::vector<double>{32.0, 24.0, 8.0}));
    EXPECT_EQ(reader.readStringAttribute("/timeseries/racks/rack_count", "units"), "1");
    EXPECT_EQ(reader.readStringArray("/timeseries/racks/rack_model").at(2), "gb300_nvl72");
    for (const std::string c : {"rack_group_name", "rack_count", "rack_model", "power_share"}) {
        EXPECT_EQ(reader.dimensionScales("/timeseries/racks/" + c),
                  std::vector<std::string>{"/timeseries/racks/rack_group"})
            << c;
    }
    // The 1-D series of the other groups are as before.
    EXPECT_EQ(reader.readDataset("/timeseries/power/it_power"),
              plain(r.timeseries.at("power", "it_power").values));
}

TEST_F(IoTest, Hdf5ArrayWithoutItsChannelsIsRejected) {
    Report r = arrayReport(10);
    auto& chans = r.timeseries.channels;
    chans.erase(std::remove_if(chans.begin(), chans.end(),
                               [](const Channel& c) {
                                   return c.group == "racks/g0_infer" && c.name == "it_power";
                               }),
                chans.end());
    const fs::path file = dir_ / "report.h5";
    try {
        makeHdf5Writer()->write(r, file);
        FAIL() << "expected ModelError";
    } catch (const ModelError& e) {
        EXPECT_NE(std::string(e.what()).find("racks/g0_infer/it_power"), std::string::npos)
            << e.what();
    }
    Report bad = arrayReport(10);
    std::get<std::vector<std::string>>(bad.timeseries.arrays[0].coordinates[1].values).pop_back();
    EXPECT_THROW(makeHdf5Writer()->write(bad, file), ModelError);
    EXPECT_TRUE(entries(dir_).empty());
}

TEST_F(IoTest, H5dumpReadsTheArray) {
    if (!fs::exists("/usr/bin/h5dump")) GTEST_SKIP() << "h5dump not installed";
    const fs::path file = dir_ / "report.h5";
    makeHdf5Writer()->write(arrayReport(20), file);
    const std::string cmd =
        "/usr/bin/h5dump -d /timeseries/racks/junction_temp -d "
        "/timeseries/racks/rack_group_name '" +
        file.string() + "' > /dev/null 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
}

// A run without a known start keeps plain seconds (no calendar to claim); the UDUNITS
// spelling replaces the one CF would misread ("C" is the coulomb there).
TEST_F(IoTest, Hdf5UndatedTimeAndUdunitsSpelling) {
    Report r = sampleReport(10);
    r.timeseries.start_iso8601.clear();
    r.timeseries.channels[1].unit = "C";
    const fs::path file = dir_ / "report.h5";
    makeHdf5Writer()->write(r, file);
    hdf5::Reader reader(file);
    EXPECT_EQ(reader.readStringAttribute("/timeseries/cooling/time", "units"), "s");
    const auto attrs = reader.listAttributes("/timeseries/cooling/time");
    EXPECT_EQ(std::count(attrs.begin(), attrs.end(), "calendar"), 0);
    EXPECT_EQ(reader.readStringAttribute("/timeseries/cooling/tcs_supply_temp", "units"), "degC");
}

TEST_F(IoTest, Hdf5ChannelMayNotBeCalledTime) {
    Report r = sampleReport(10);
    r.timeseries.channels[0].name = "time";
    const fs::path file = dir_ / "report.h5";
    try {
        makeHdf5Writer()->write(r, file);
        FAIL() << "expected ModelError";
    } catch (const ModelError& e) {
        EXPECT_NE(std::string(e.what()).find("'power/time'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("reserved"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(entries(dir_).empty());
}

TEST_F(IoTest, Hdf5RootAttributesAndTexts) {
    const Report r = sampleReport(10);
    const fs::path file = dir_ / "report.h5";
    makeHdf5Writer()->write(r, file);
    for (const auto& [name, value] : r.attributes) {
        EXPECT_EQ(hdf5::readStringAttribute(file, "/", name), value) << name;
    }
    EXPECT_EQ(hdf5::readStringDataset(file, "/scenario/input"), r.texts.at("scenario/input"));
    EXPECT_EQ(hdf5::readStringDataset(file, "/scenario/resolved"), r.texts.at("scenario/resolved"));
}

TEST_F(IoTest, Hdf5SummaryMetricsCarryUnits) {
    const Report r = sampleReport(10);
    const fs::path file = dir_ / "report.h5";
    makeHdf5Writer()->write(r, file);
    for (const Metric& m : r.summary) {
        EXPECT_DOUBLE_EQ(hdf5::readDoubleAttribute(file, "/summary", m.name), m.value);
        EXPECT_EQ(hdf5::readStringAttribute(file, "/summary", m.name + "_units"), m.unit);
        const std::string ds = "/summary/" + m.name;
        EXPECT_EQ(hdf5::readDataset(file, ds), std::vector<double>{m.value});
        EXPECT_EQ(hdf5::readStringAttribute(file, ds, "units"), m.unit);
        // The description travels with the figure (a report opened later shows it), and a
        // metric without one gets no empty attribute.
        const auto attrs = hdf5::listAttributes(file, ds);
        const bool has = std::find(attrs.begin(), attrs.end(), "description") != attrs.end();
        EXPECT_EQ(has, !m.description.empty()) << m.name;
        if (has) {
            EXPECT_EQ(hdf5::readStringAttribute(file, ds, "description"), m.description);
        }
    }
}

TEST_F(IoTest, Hdf5TableWithTextAndNumericColumns) {
    const Report r = sampleReport(10);
    const fs::path file = dir_ / "report.h5";
    makeHdf5Writer()->write(r, file);
    const Table t = hdf5::readTable(file, "/sizing/power");
    const Table& expected = r.tables.front();
    EXPECT_EQ(t.path, "sizing/power");
    ASSERT_EQ(t.columns.size(), expected.columns.size());
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        EXPECT_EQ(t.columns[c].name, expected.columns[c].name);
        EXPECT_EQ(t.columns[c].unit, expected.columns[c].unit);
        EXPECT_EQ(t.columns[c].data, expected.columns[c].data) << t.columns[c].name;
    }
    EXPECT_EQ(hdf5::readStringArrayAttribute(file, "/sizing/power", "units"),
              (std::vector<std::string>{"", "W", "1", ""}));
}

TEST_F(IoTest, Hdf5TimeseriesAreChunkedAndCompressed) {
    const fs::path file = dir_ / "report.h5";
    makeHdf5Writer()->write(sampleReport(10000), file);
    for (const char* path :
         {"/timeseries/time", "/timeseries/power/it_power", "/timeseries/rack/r01/gpu_max_temp"}) {
        EXPECT_TRUE(hdf5::datasetIsChunkedCompressed(file, path)) << path;
        const auto s = hdf5::Reader(file).storage(path);
        EXPECT_EQ(s.chunk_dims, std::vector<std::uint64_t>{4096}) << path;
        EXPECT_TRUE(s.shuffle);
        EXPECT_EQ(s.deflate_level, 4);
    }
    // Short series: one chunk of the whole length.
    const fs::path small = dir_ / "small.h5";
    makeHdf5Writer({.compression_level = 9})->write(sampleReport(10), small);
    const auto s = hdf5::Reader(small).storage("/timeseries/power/it_power");
    EXPECT_EQ(s.chunk_dims, std::vector<std::uint64_t>{10});
    EXPECT_EQ(s.deflate_level, 9);
    // Level 0: chunked, not compressed.
    const fs::path plain = dir_ / "plain.h5";
    makeHdf5Writer({.compression_level = 0})->write(sampleReport(10), plain);
    EXPECT_FALSE(hdf5::datasetIsChunkedCompressed(plain, "/timeseries/power/it_power"));
    EXPECT_TRUE(hdf5::Reader(plain).storage("/timeseries/power/it_power").chunked);
}

// The writer stores chunks it filtered itself (core/io/chunk_packer.h); HDF5 must read them
// back through the filters the datasets declare: series and 2-D arrays over many chunks with
// an edge chunk (50 samples in chunks of 7), compressed and not, on one thread and several.
TEST_F(IoTest, Hdf5ReadsBackTheChunksTheWriterFiltered) {
    for (const int level : {0, 4}) {
        for (const unsigned threads : {1u, 3u}) {
            const Hdf5Options options{
                .compression_level = level, .chunk_size = 7, .threads = threads};
            const std::string tag = fmt::format("level {}, {} threads", level, threads);
            const fs::path series = dir_ / "series.h5";
            const Report r = sampleReport(50);
            makeHdf5Writer(options)->write(r, series);
            hdf5::Reader sr(series);
            EXPECT_EQ(sr.storage("/timeseries/power/it_power").chunk_dims,
                      std::vector<std::uint64_t>{7});
            EXPECT_EQ(sr.readDataset("/timeseries/time"), plain(r.timeseries.time)) << tag;
            EXPECT_EQ(sr.readDataset("/timeseries/cooling/time"), plain(r.timeseries.time)) << tag;
            for (const Channel& c : r.timeseries.channels) {
                EXPECT_EQ(sr.readDataset("/timeseries/" + c.group + "/" + c.name), plain(c.values))
                    << tag << " " << c.name;
            }
            const fs::path array = dir_ / "array.h5";
            const Report a = arrayReport(50);
            makeHdf5Writer(options)->write(a, array);
            hdf5::Reader ar(array);
            for (const char* name : {"junction_temp", "it_power"}) {
                const std::string v = std::string("/timeseries/racks/") + name;
                EXPECT_EQ(ar.storage(v).chunk_dims, (std::vector<std::uint64_t>{7, 3})) << tag;
                const std::vector<double> values = ar.readDataset(v);
                ASSERT_EQ(values.size(), 150u) << tag;
                for (std::size_t j = 0; j < 3; ++j) {
                    const Channel& c =
                        a.timeseries.at(a.timeseries.arrays[0].channelGroup(j), name);
                    for (std::size_t i = 0; i < 50; ++i) {
                        ASSERT_EQ(values[i * 3 + j], c.values[i]) << tag << " " << v;
                    }
                }
            }
        }
    }
}

TEST_F(IoTest, Hdf5CompressionShrinksSmoothSeries) {
    Report r = sampleReport(20000);
    const fs::path packed = dir_ / "packed.h5";
    const fs::path plain = dir_ / "plain.h5";
    makeHdf5Writer()->write(r, packed);
    makeHdf5Writer({.compression_level = 0})->write(r, plain);
    EXPECT_LT(fs::file_size(packed), fs::file_size(plain));
}

TEST_F(IoTest, Hdf5InvalidOptionsAreRejected) {
    EXPECT_THROW(makeHdf5Writer({.compression_level = 10}), InputError);
    EXPECT_THROW(makeHdf5Writer({.compression_level = 4, .chunk_size = 0}), InputError);
}

TEST_F(IoTest, Hdf5EmptyTimeseriesIsWritten) {
    Report r;
    r.summary = {{"pue", 1.1, "1"}};
    const fs::path file = dir_ / "empty.h5";
    makeHdf5Writer()->write(r, file);
    EXPECT_TRUE(hdf5::readDataset(file, "/timeseries/time").empty());
    EXPECT_EQ(hdf5::readStringAttribute(file, "/timeseries/time", "units"), "s");
}

TEST_F(IoTest, Hdf5MissingDirectoryThrowsInputErrorAndCreatesNothing) {
    const fs::path file = dir_ / "no_such_dir" / "report.h5";
    try {
        makeHdf5Writer()->write(sampleReport(10), file);
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(dir_ / "no_such_dir"));
    EXPECT_TRUE(entries(dir_).empty());
}

TEST_F(IoTest, Hdf5ChannelLengthMismatchThrowsAndLeavesNothing) {
    Report r = sampleReport(10);
    r.timeseries.channels[1].values.pop_back();
    const fs::path file = dir_ / "report.h5";
    try {
        makeHdf5Writer()->write(r, file);
        FAIL() << "expected ModelError";
    } catch (const ModelError& e) {
        EXPECT_NE(std::string(e.what()).find("cooling/tcs_supply_temp"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos);
    }
    EXPECT_TRUE(entries(dir_).empty());
}

TEST_F(IoTest, Hdf5FailureMidWriteRemovesTheTemporaryFile) {
    // /timeseries/rack/r01 is a dataset here and would have to be a group for the second
    // channel: HDF5 itself fails after the temporary file was created and partly written.
    Report r = sampleReport(10);
    r.timeseries.channels.push_back({"rack", "r01", "K", "", SampleVector(10, 1.0)});
    std::swap(r.timeseries.channels[2], r.timeseries.channels[3]);
    const fs::path file = dir_ / "report.h5";
    try {
        makeHdf5Writer()->write(r, file);
        FAIL() << "expected Error";
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(file.string()), std::string::npos) << msg;
        EXPECT_NE(msg.find("/timeseries/rack/r01"), std::string::npos) << msg;
    }
    EXPECT_TRUE(entries(dir_).empty());
}

TEST_F(IoTest, Hdf5FailedWriteDoesNotClobberExistingReport) {
    const fs::path file = dir_ / "report.h5";
    const Report good = sampleReport(50);
    makeHdf5Writer()->write(good, file);

    Report bad = sampleReport(10);
    bad.timeseries.channels.push_back({"rack", "r01", "K", "", SampleVector(10, 1.0)});
    std::swap(bad.timeseries.channels[2], bad.timeseries.channels[3]);
    EXPECT_THROW(makeHdf5Writer()->write(bad, file), Error);
    bad = sampleReport(10);
    bad.timeseries.time.push_back(1e9);
    EXPECT_THROW(makeHdf5Writer()->write(bad, file), ModelError);

    EXPECT_EQ(entries(dir_), std::vector<std::string>{"report.h5"});
    EXPECT_EQ(hdf5::readDataset(file, "/timeseries/power/it_power"),
              plain(good.timeseries.channels[0].values));
}

TEST_F(IoTest, Hdf5SuccessfulWriteReplacesExistingReport) {
    const fs::path file = dir_ / "report.h5";
    makeHdf5Writer()->write(sampleReport(50), file);
    makeHdf5Writer()->write(sampleReport(20), file);
    EXPECT_EQ(hdf5::readDataset(file, "/timeseries/time").size(), 20u);
    EXPECT_EQ(entries(dir_), std::vector<std::string>{"report.h5"});
}

TEST_F(IoTest, Hdf5InconsistentReportsAreRejectedBeforeWriting) {
    const fs::path file = dir_ / "report.h5";
    Report r = sampleReport(5);
    r.timeseries.channels.push_back(r.timeseries.channels.front());
    EXPECT_THROW(makeHdf5Writer()->write(r, file), ModelError);
    r = sampleReport(5);
    std::get<std::vector<double>>(r.tables[0].columns[1].data).pop_back();
    EXPECT_THROW(makeHdf5Writer()->write(r, file), ModelError);
    r = sampleReport(5);
    r.summary.push_back({"bad/name", 1.0, "1"});
    EXPECT_THROW(makeHdf5Writer()->write(r, file), ModelError);
    EXPECT_TRUE(entries(dir_).empty());
}

TEST_F(IoTest, H5dumpReadsTheReport) {
    if (!fs::exists("/usr/bin/h5dump")) GTEST_SKIP() << "h5dump not installed";
    const fs::path file = dir_ / "report.h5";
    makeHdf5Writer()->write(sampleReport(100), file);
    const std::string cmd = "/usr/bin/h5dump -H '" + file.string() + "' > /dev/null 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    const std::string full = "/usr/bin/h5dump '" + file.string() + "' > /dev/null 2>&1";
    EXPECT_EQ(std::system(full.c_str()), 0);
}

TEST_F(IoTest, ReaderErrorsNameFileAndObject) {
    const fs::path file = dir_ / "report.h5";
    makeHdf5Writer()->write(sampleReport(5), file);
    try {
        hdf5::readDataset(file, "/timeseries/power/nope");
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(file.string()), std::string::npos) << msg;
        EXPECT_NE(msg.find("/timeseries/power/nope"), std::string::npos) << msg;
    }
    EXPECT_FALSE(hdf5::exists(file, "/no/such/group"));
    EXPECT_TRUE(hdf5::exists(file, "/"));
    EXPECT_THROW(hdf5::readStringAttribute(file, "/", "missing_attr"), InputError);
    EXPECT_THROW(hdf5::readDataset(file, "/timeseries"), InputError);        // a group
    EXPECT_THROW(hdf5::readDataset(file, "/scenario/input"), InputError);    // not numeric
    EXPECT_THROW(hdf5::readTable(file, "/timeseries/time"), InputError);     // not compound
    EXPECT_THROW(hdf5::listChildren(file, "/timeseries/time"), InputError);  // not a group
    EXPECT_THROW(hdf5::readDataset(dir_ / "absent.h5", "/x"), InputError);
    std::ofstream(dir_ / "text.h5") << "not hdf5";
    EXPECT_THROW(hdf5::Reader(dir_ / "text.h5"), InputError);
}

TEST_F(IoTest, CsvWriterContent) {
    const Report r = sampleReport(3);
    const fs::path out = dir_ / "csv";
    makeCsvWriter()->write(r, out);
    EXPECT_EQ(entries(out),
              (std::vector<std::string>{"sizing_power.csv", "summary.csv", "timeseries.csv"}));

    std::istringstream ts(readText(out / "timeseries.csv"));
    std::string line;
    std::getline(ts, line);
    EXPECT_EQ(line,
              "time_s,power/it_power [W],cooling/tcs_supply_temp [K],rack/r01/gpu_max_temp [K]");
    std::getline(ts, line);
    EXPECT_EQ(line, "0,8400000,308.15,341");
    std::getline(ts, line);
    EXPECT_EQ(line.substr(0, 3), "60,");
    // Full precision: the value parses back exactly.
    const double v = std::stod(line.substr(3, line.find(',', 3) - 3));
    EXPECT_EQ(v, r.timeseries.channels[0].values[1]);
    std::getline(ts, line);
    EXPECT_FALSE(std::getline(ts, line));  // header + 3 rows

    EXPECT_EQ(readText(out / "summary.csv"),
              "name,value,unit\npue,1.12,1\nit_energy_MWh,42.5,MWh\nmax_gpu_temp_C,71,C\n");
    EXPECT_EQ(readText(out / "sizing_power.csv"),
              "element,rating [W],count [1],redundancy\n"
              "UPS,1500000,4,4N/3\n"
              "\"PDU, row A\",400000,16,\n"
              "Ω bus,2500000,2,N+1\n");

    // Writing again into the existing directory replaces the files.
    makeCsvWriter()->write(sampleReport(1), out);
    EXPECT_EQ(entries(out).size(), 3u);
}

TEST_F(IoTest, CsvWriterLeavesNoValueEmpty) {
    // A job no output sample saw running has no lost GPU-hours (NaN): "nan" was text to a
    // spreadsheet; an empty cell is read as missing by spreadsheets and pandas alike.
    Report r = sampleReport(2);
    r.summary.push_back({"compute_lost_pct", std::nan(""), "%"});
    r.timeseries.channels[1].values[1] = std::nan("");
    r.tables[0].columns[2] = {"count", "1", std::vector<double>{4, std::nan(""), 2}};
    const fs::path out = dir_ / "csv";
    makeCsvWriter()->write(r, out);
    const std::string summary = readText(out / "summary.csv");
    EXPECT_NE(summary.find("\ncompute_lost_pct,,%\n"), std::string::npos) << summary;
    std::istringstream ts(readText(out / "timeseries.csv"));
    std::string line;
    std::getline(ts, line);
    std::getline(ts, line);
    std::getline(ts, line);
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), 3) << line;
    EXPECT_NE(line.find(",,"), std::string::npos) << line;
    EXPECT_EQ(line.find("nan"), std::string::npos) << line;
    EXPECT_NE(readText(out / "sizing_power.csv").find("\"PDU, row A\",400000,,\n"),
              std::string::npos);
}

TEST_F(IoTest, CsvWriterRejectsBadDestinations) {
    EXPECT_THROW(makeCsvWriter()->write(sampleReport(2), dir_ / "a" / "b"), InputError);
    std::ofstream(dir_ / "file") << "x";
    EXPECT_THROW(makeCsvWriter()->write(sampleReport(2), dir_ / "file"), InputError);
    Report r = sampleReport(2);
    r.timeseries.channels[0].values.clear();
    EXPECT_THROW(makeCsvWriter()->write(r, dir_ / "csv"), ModelError);
    EXPECT_FALSE(fs::exists(dir_ / "csv"));
}

TEST_F(IoTest, NullWriterWritesNothing) {
    makeNullWriter()->write(sampleReport(5), dir_ / "report.h5");
    EXPECT_TRUE(entries(dir_).empty());
}

}  // namespace
}  // namespace dctwin
