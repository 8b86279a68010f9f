// EPW reader: the real files in data/weather, and broken copies of them written at test time
// into a temporary directory (so no broken fixture is committed).
#include "core/weather/epw.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.h"
#include "core/units.h"
#include "core/weather/psychrometrics.h"

namespace dctwin::weather {
namespace {

namespace fs = std::filesystem;
using units::celsiusToKelvin;
using units::kelvinToCelsius;

const fs::path kWeatherDir = fs::path(DCTWIN_SOURCE_DIR) / "data" / "weather";
const fs::path kMilwaukee = kWeatherDir / "USA_WI_Milwaukee-Mitchell.Intl.AP.726400_TMY3.epw";
const fs::path kPhoenix = kWeatherDir / "USA_AZ_Phoenix-Sky.Harbor.epw";
const std::vector<fs::path> kAllFiles = {
    kMilwaukee, kPhoenix, kWeatherDir / "USA_TX_Dallas-Fort.Worth.epw",
    kWeatherDir / "USA_VA_Leesburg.Exec.epw",
    kWeatherDir / "USA_WA_Pasco-Tri.Cities.AP.727845_TMY3.epw"};

// The real files are read once and shared: parsing is cheap, but not free under sanitizers.
const Weather& milwaukee() {
    static const Weather w = readEpw(kMilwaukee);
    return w;
}
const Weather& phoenix() {
    static const Weather w = readEpw(kPhoenix);
    return w;
}

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// The file as lines without their CRLF terminators (line n of the file is lines[n - 1]).
std::vector<std::string> linesOf(const fs::path& path) {
    const std::string text = slurp(path);
    std::vector<std::string> lines;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find("\r\n", pos);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(pos, end - pos));
        pos = end + 2;
    }
    return lines;
}

std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string item;
    while (std::getline(ss, item, ',')) out.push_back(item);
    if (!line.empty() && line.back() == ',') out.emplace_back();
    return out;
}

std::string joinCsv(const std::vector<std::string>& fields) {
    std::string s;
    for (std::size_t i = 0; i < fields.size(); ++i) s += (i ? "," : "") + fields[i];
    return s;
}

// Replaces field `field` (1-based) of line `line` (1-based).
void setField(std::vector<std::string>& lines, std::size_t line, std::size_t field,
              const std::string& value) {
    auto f = splitCsv(lines[line - 1]);
    f[field - 1] = value;
    lines[line - 1] = joinCsv(f);
}

class BrokenEpw : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("dctwin_epw_test_" + std::to_string(::getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
        lines_ = linesOf(kMilwaukee);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // Writes lines_ (CRLF, as the originals) to `name` in the temp dir and returns its path.
    fs::path write(const std::string& name, const std::string& eol = "\r\n") const {
        const fs::path path = dir_ / name;
        std::ofstream out(path, std::ios::binary);
        for (const auto& l : lines_) out << l << eol;
        return path;
    }

    // Reads `path`, expecting an InputError whose message contains every part of `parts`.
    static std::string expectError(const fs::path& path, const std::vector<std::string>& parts) {
        try {
            readEpw(path);
        } catch (const InputError& e) {
            const std::string msg = e.what();
            for (const auto& part : parts) {
                EXPECT_NE(msg.find(part), std::string::npos)
                    << "message lacks '" << part << "': " << msg;
            }
            return msg;
        }
        ADD_FAILURE() << "expected InputError reading " << path;
        return {};
    }

    fs::path dir_;
    std::vector<std::string> lines_;
};

TEST(Epw, RealFilesHave8760HoursInCalendarOrder) {
    for (const auto& path : kAllFiles) {
        const Weather w = readEpw(path);
        EXPECT_EQ(w.hourCount(), 8760u) << path;
        EXPECT_EQ(w.filledValueCount(), 0u) << path;
        for (std::size_t i = 0; i < w.hourCount(); ++i) {
            const WeatherSample s = w.row(i);
            ASSERT_LE(s.dew_point, s.wet_bulb + 1e-9) << path << " row " << i;
            ASSERT_LE(s.wet_bulb, s.dry_bulb + 1e-9) << path << " row " << i;
            ASSERT_GT(s.pressure, 90000.0);
            ASSERT_GT(s.relative_humidity, 0.0);
            ASSERT_LE(s.relative_humidity, 1.0 + 1e-12);
            ASSERT_TRUE(std::isfinite(s.humidity_ratio));
        }
    }
    EXPECT_EQ(Weather::stamp(0).month, 1);
    EXPECT_EQ(Weather::stamp(0).hour, 1);
    const HourStamp last = Weather::stamp(8759);
    EXPECT_EQ(last.month, 12);
    EXPECT_EQ(last.day, 31);
    EXPECT_EQ(last.hour, 24);
    const HourStamp mar1 = Weather::stamp((31 + 28) * 24 + 4);  // Mar 1, hour 5
    EXPECT_EQ(mar1.month, 3);
    EXPECT_EQ(mar1.day, 1);
    EXPECT_EQ(mar1.hour, 5);
}

TEST(Epw, FirstHourMatchesLine9) {
    // Milwaukee, line 9 of the file: 1988,1,1,1,...,-15.6,-18.9,76,99800,... wind speed 8.8.
    const WeatherSample m = milwaukee().row(0);
    EXPECT_NEAR(m.dry_bulb, celsiusToKelvin(-15.6), 1e-9);
    EXPECT_NEAR(m.dew_point, celsiusToKelvin(-18.9), 1e-9);
    EXPECT_NEAR(milwaukee().fileRelativeHumidity()[0], 0.76, 1e-12);
    EXPECT_NEAR(m.pressure, 99800.0, 1e-9);
    EXPECT_NEAR(m.wind_speed, 8.8, 1e-12);
    // Phoenix, line 9 of the file: 2021,1,1,1,...,8.30,-6.10,33,97058,... wind speed 2.10.
    const WeatherSample p = phoenix().row(0);
    EXPECT_NEAR(p.dry_bulb, celsiusToKelvin(8.3), 1e-9);
    EXPECT_NEAR(p.dew_point, celsiusToKelvin(-6.1), 1e-9);
    EXPECT_NEAR(phoenix().fileRelativeHumidity()[0], 0.33, 1e-12);
    EXPECT_NEAR(p.pressure, 97058.0, 1e-9);
    EXPECT_NEAR(p.wind_speed, 2.1, 1e-12);
    // Humidity from dry bulb and dew point agrees with the file's RH on this row.
    EXPECT_NEAR(p.relative_humidity, 0.33, 0.01);
    EXPECT_NEAR(m.relative_humidity, 0.76, 0.03);  // TMY3 RH is over water below 0 °C
    // Wet bulb and humidity ratio at station pressure, by hand from ASHRAE Handbook —
    // Fundamentals 2017, ch. 1 (worked apart from psychrometrics.cpp): p_w = p_ws over ice at
    // the −6.1 °C dew point (eq. 5) = 365.57 Pa; W = 0.621945·p_w/(p − p_w) (eq. 20) =
    // 0.0023514 kg/kg; the wet bulb solves eq. 33 for that W at 8.3 °C: 2.468 °C; the RH
    // p_w/p_ws(8.3 °C) (eq. 6) = 0.3339, the file's 33 %.
    EXPECT_NEAR(p.humidity_ratio, 0.0023514, 1e-6);
    EXPECT_NEAR(p.wet_bulb, celsiusToKelvin(2.468), 0.01);
    EXPECT_NEAR(p.relative_humidity, 0.3339, 0.0005);
}

TEST(Epw, LocationFromLocationLine) {
    // LOCATION,Milwaukee Mitchell Intl Ap,WI,USA,TMY3,726400,42.95,-87.90,-6.0,205.0
    const Location& m = milwaukee().location();
    EXPECT_EQ(m.city, "Milwaukee Mitchell Intl Ap");
    EXPECT_EQ(m.state, "WI");
    EXPECT_EQ(m.country, "USA");
    EXPECT_EQ(m.source, "TMY3");
    EXPECT_EQ(m.wmo, "726400");
    EXPECT_DOUBLE_EQ(m.latitude, 42.95);
    EXPECT_DOUBLE_EQ(m.longitude, -87.90);
    EXPECT_DOUBLE_EQ(m.time_zone, -6.0);
    EXPECT_DOUBLE_EQ(m.elevation, 205.0);
    // LOCATION,Phoenix-Sky.Harbor.Intl.AP,AZ,USA,SRC-TMYx,722780,33.42800,-112.0040,-7.0,337.4
    const Location& p = phoenix().location();
    EXPECT_EQ(p.city, "Phoenix-Sky.Harbor.Intl.AP");
    EXPECT_EQ(p.source, "SRC-TMYx");
    EXPECT_EQ(p.wmo, "722780");
    EXPECT_DOUBLE_EQ(p.latitude, 33.428);
    EXPECT_DOUBLE_EQ(p.longitude, -112.004);
    EXPECT_DOUBLE_EQ(p.time_zone, -7.0);
    EXPECT_DOUBLE_EQ(p.elevation, 337.4);
    EXPECT_EQ(milwaukee().name(), kMilwaukee.string());
}

TEST(Epw, DesignConditionsFromFile) {
    // Milwaukee line 2 (2009 Handbook): Heating,1,-20,-16.8,... Cooling,7,8.7,32.4,23.7,30.4,
    // 22.6,28.7,21.5,25,30.5,23.9,28.6,22.9,27.1,...
    const DesignConditions& m = milwaukee().designConditions();
    EXPECT_TRUE(m.heating_from_file);
    EXPECT_TRUE(m.cooling_from_file);
    EXPECT_EQ(m.source, "Climate Design Data 2009 ASHRAE Handbook");
    EXPECT_EQ(m.coldest_month, 1);
    EXPECT_NEAR(m.heating_db_99_6, celsiusToKelvin(-20.0), 1e-9);
    EXPECT_NEAR(m.heating_db_99, celsiusToKelvin(-16.8), 1e-9);
    EXPECT_EQ(m.hottest_month, 7);
    EXPECT_NEAR(m.cooling_db_range, 8.7, 1e-9);
    EXPECT_NEAR(m.cooling_db_0_4, celsiusToKelvin(32.4), 1e-9);
    EXPECT_NEAR(m.cooling_mcwb_0_4, celsiusToKelvin(23.7), 1e-9);
    EXPECT_NEAR(m.cooling_db_1, celsiusToKelvin(30.4), 1e-9);
    EXPECT_NEAR(m.cooling_mcwb_1, celsiusToKelvin(22.6), 1e-9);
    EXPECT_NEAR(m.cooling_db_2, celsiusToKelvin(28.7), 1e-9);
    EXPECT_NEAR(m.cooling_mcwb_2, celsiusToKelvin(21.5), 1e-9);
    EXPECT_NEAR(m.evaporation_wb_0_4, celsiusToKelvin(25.0), 1e-9);
    EXPECT_NEAR(m.evaporation_mcdb_0_4, celsiusToKelvin(30.5), 1e-9);
    EXPECT_NEAR(m.evaporation_wb_2, celsiusToKelvin(22.9), 1e-9);
    // Phoenix line 2 (2021 Handbook, one more heating field): Heating,12,4.0,5.5,...
    // Cooling,7,11.4,43.6,20.7,42.5,20.6,41.5,20.5,24.2,34.2,...
    const DesignConditions& p = phoenix().designConditions();
    EXPECT_EQ(p.coldest_month, 12);
    EXPECT_NEAR(p.heating_db_99_6, celsiusToKelvin(4.0), 1e-9);
    EXPECT_NEAR(p.cooling_db_0_4, celsiusToKelvin(43.6), 1e-9);
    EXPECT_NEAR(p.cooling_mcwb_0_4, celsiusToKelvin(20.7), 1e-9);
    EXPECT_NEAR(p.evaporation_wb_0_4, celsiusToKelvin(24.2), 1e-9);
    EXPECT_NEAR(p.evaporation_mcdb_0_4, celsiusToKelvin(34.2), 1e-9);
}

TEST(Epw, InterpolatesBetweenHoursAndWrapsTheYear) {
    const Weather& w = phoenix();
    const auto& db = w.dryBulb();
    const auto& wb = w.wetBulb();
    // Row i is the value at the end of its hour, (i + 1) h.
    EXPECT_DOUBLE_EQ(w.at(Weather::rowTime(0)).dry_bulb, db[0]);
    EXPECT_DOUBLE_EQ(w.at(3600.0 * 100).dry_bulb, db[99]);
    // Halfway and a quarter between rows 99 and 100.
    EXPECT_NEAR(w.at(3600.0 * 100.5).dry_bulb, 0.5 * (db[99] + db[100]), 1e-9);
    EXPECT_NEAR(w.at(3600.0 * 100.25).wet_bulb, 0.75 * wb[99] + 0.25 * wb[100], 1e-9);
    const WeatherSample mid = w.at(3600.0 * 4000.5);
    EXPECT_NEAR(mid.pressure, 0.5 * (w.pressure()[3999] + w.pressure()[4000]), 1e-9);
    EXPECT_NEAR(mid.dew_point, 0.5 * (w.dewPoint()[3999] + w.dewPoint()[4000]), 1e-9);
    // t = 0 is the end of Dec 31 hour 24; the first hour of the year blends it with Jan 1 h1.
    EXPECT_DOUBLE_EQ(w.at(0.0).dry_bulb, db[8759]);
    EXPECT_NEAR(w.at(1800.0).dry_bulb, 0.5 * (db[8759] + db[0]), 1e-9);
    // Periodic: a second year and negative times repeat the first.
    EXPECT_NEAR(w.at(units::year + 3600.0 * 10.5).dry_bulb, 0.5 * (db[9] + db[10]), 1e-9);
    EXPECT_NEAR(w.at(-1800.0).dry_bulb, 0.5 * (db[8758] + db[8759]), 1e-9);
    EXPECT_THROW(w.at(std::nan("")), InputError);
}

TEST(Epw, LfLineEndingsReadTheSame) {
    // The shipped files are CRLF; an LF copy (e.g. after a git checkout with eol=lf) must agree.
    const std::string text = slurp(kMilwaukee);
    std::string lf;
    lf.reserve(text.size());
    for (char c : text) {
        if (c != '\r') lf.push_back(c);
    }
    const Weather a = parseEpw(lf, "lf.epw");
    const Weather& b = milwaukee();
    EXPECT_EQ(a.dryBulb(), b.dryBulb());
    EXPECT_EQ(a.wetBulb(), b.wetBulb());
}

TEST_F(BrokenEpw, TruncatedFile) {
    lines_.resize(8 + 4380);
    expectError(write("truncated.epw"),
                {"truncated.epw: expected 8760 hourly rows, found 4380 (file ends at line 4388)"});
}

TEST_F(BrokenEpw, WrongFieldCount) {
    auto f = splitCsv(lines_[8]);
    f.resize(12);
    lines_[8] = joinCsv(f);
    expectError(write("fields.epw"),
                {"fields.epw:9: expected 35 comma-separated fields, found 12"});
}

TEST_F(BrokenEpw, NonNumericField) {
    setField(lines_, 112, 7, "abc");
    expectError(write("nan.epw"),
                {"nan.epw:112: field 7 (dry bulb temperature): 'abc' is not a number"});
    setField(lines_, 112, 7, "-1.0");
    setField(lines_, 113, 10, "1013x");
    expectError(write("nan.epw"),
                {"nan.epw:113: field 10 (atmospheric station pressure): '1013x' is not a number"});
}

TEST_F(BrokenEpw, MissingFile) {
    expectError(dir_ / "no_such_file.epw", {"no_such_file.epw", "does not exist"});
}

// readEpwShared hands out one parsed copy while the file is unchanged, and reads it again
// once its content (size or modification time) changes; a failed read is not kept.
TEST_F(BrokenEpw, SharedReadsAreKeptUntilTheFileChanges) {
    const fs::path p = write("shared.epw");
    const auto a = readEpwShared(p);
    EXPECT_EQ(readEpwShared(p).get(), a.get());
    EXPECT_EQ(a->dryBulb(), readEpw(p).dryBulb());
    // Threads asking at once for a file not read yet get one copy.
    const fs::path q = write("threads.epw");
    std::vector<std::shared_ptr<const Weather>> got(4);
    std::vector<std::thread> pool;
    for (auto& g : got) pool.emplace_back([&g, &q] { g = readEpwShared(q); });
    for (auto& t : pool) t.join();
    for (const auto& g : got) EXPECT_EQ(g.get(), got[0].get());

    // The first hour 1 K warmer, same length ("-15.6" → "-14.6" in Milwaukee's line 9), and a
    // later modification time even where the file system counts whole seconds.
    const std::string first = splitCsv(lines_[8])[6];
    ASSERT_EQ(first, "-15.6");
    setField(lines_, 9, 7, "-14.6");
    const auto before = fs::last_write_time(p);
    write("shared.epw");
    fs::last_write_time(p, before + std::chrono::seconds(2));
    const auto b = readEpwShared(p);
    EXPECT_NE(b.get(), a.get());
    EXPECT_NEAR(b->dryBulb()[0] - a->dryBulb()[0], 1.0, 1e-12);

    // Errors are readEpw's, and the broken file is read again once fixed.
    EXPECT_THROW(readEpwShared(dir_ / "no_such_file.epw"), InputError);
    setField(lines_, 112, 7, "abc");
    const fs::path r = write("broken.epw");
    EXPECT_THROW(readEpwShared(r), InputError);
    setField(lines_, 112, 7, "-1.0");
    const auto before_fix = fs::last_write_time(r);
    write("broken.epw");
    fs::last_write_time(r, before_fix + std::chrono::seconds(2));
    EXPECT_EQ(readEpwShared(r)->hourCount(), 8760u);
}

TEST_F(BrokenEpw, HeaderIsNotEpw) {
    lines_[0] = "Date,Time,Temperature";
    expectError(write("header.epw"), {"header.epw:1: header is not EPW", "LOCATION"});
    lines_ = linesOf(kMilwaukee);
    lines_.erase(lines_.begin() + 3);  // no GROUND TEMPERATURES line
    expectError(write("header.epw"), {"header.epw:4:", "GROUND TEMPERATURES"});
    lines_ = {lines_[0], lines_[1]};
    expectError(write("header.epw"), {"header.epw: file ends at line 2"});
    lines_.clear();
    expectError(write("empty.epw"), {"empty.epw: file is empty"});
}

TEST_F(BrokenEpw, CalendarErrors) {
    const auto original = lines_;
    lines_[9] = lines_[8];  // line 10 repeats Jan 1 hour 1
    expectError(write("dup.epw"), {"dup.epw:10:", "1/1 hour 1", "duplicated or out of order"});
    lines_ = original;
    std::swap(lines_[20], lines_[21]);
    expectError(write("order.epw"), {"order.epw:21:", "hours missing before it"});
    lines_ = original;
    setField(lines_, 9, 4, "25");
    expectError(write("hour.epw"), {"hour.epw:9: field 4 (hour): 25 is outside 1..24"});
    lines_ = original;
    setField(lines_, 9, 4, "0");
    expectError(write("hour.epw"), {"hour.epw:9: field 4 (hour): 0 is outside 1..24"});
    lines_ = original;
    setField(lines_, 9, 2, "13");
    expectError(write("month.epw"), {"month.epw:9: field 2 (month): 13 is outside 1..12"});
    lines_ = original;
    setField(lines_, 9, 3, "32");
    expectError(write("day.epw"), {"day.epw:9: field 3 (day): 32 is outside 1..31"});
    lines_ = original;
    setField(lines_, 9 + 31 * 24 + 27 * 24, 3, "29");  // Feb 28 hour 1 relabelled Feb 29
    expectError(write("leap.epw"), {"leap.epw:1401: field 3 (day): Feb 29"});
    lines_ = original;
    lines_.push_back(lines_.back());
    expectError(write("extra.epw"), {"extra.epw:8769: unexpected row after the 8760"});
}

TEST_F(BrokenEpw, ValuesOutOfRange) {
    setField(lines_, 200, 7, "85.0");
    expectError(write("range.epw"),
                {"range.epw:200: field 7 (dry bulb temperature): 85 °C is outside the EPW range"});
    lines_ = linesOf(kMilwaukee);
    setField(lines_, 201, 8, "30.0");
    expectError(write("dew.epw"), {"dew.epw:201: field 8 (dew point temperature)", "above"});
}

TEST_F(BrokenEpw, ShortGapsAreInterpolatedLongGapsRejected) {
    // Lines 1000..1002 (rows 991..993) lose their dry bulb: filled linearly from rows 990, 994.
    const auto db = [&](std::size_t line) { return std::stod(splitCsv(lines_[line - 1])[6]); };
    const double before = db(999), after = db(1003);
    for (std::size_t line = 1000; line <= 1002; ++line) setField(lines_, line, 7, "99.9");
    setField(lines_, 2000, 9, "999");      // RH: recomputed from dry bulb and dew point
    setField(lines_, 3000, 10, "999999");  // pressure: interpolated
    const Weather w = readEpw(write("gaps.epw"));
    EXPECT_EQ(w.filledValueCount(), 5u);
    for (std::size_t k = 1; k <= 3; ++k) {
        const double expected = before + (after - before) * static_cast<double>(k) / 4.0;
        EXPECT_NEAR(kelvinToCelsius(w.dryBulb()[990 + k]), expected, 1e-9);
    }
    EXPECT_NEAR(w.fileRelativeHumidity()[1991], w.relativeHumidity()[1991], 1e-12);
    EXPECT_NEAR(w.pressure()[2991], 0.5 * (w.pressure()[2990] + w.pressure()[2992]), 1e-9);

    // A missing dew point with the RH present is recomputed from dry bulb and RH.
    lines_ = linesOf(kMilwaukee);
    setField(lines_, 4000, 8, "99.9");
    const Weather v = readEpw(write("dew.epw"));
    EXPECT_EQ(v.filledValueCount(), 1u);
    EXPECT_NEAR(v.relativeHumidity()[3991], v.fileRelativeHumidity()[3991], 0.01);

    lines_ = linesOf(kMilwaukee);
    for (std::size_t line = 500; line < 510; ++line) setField(lines_, line, 7, "99.9");
    expectError(write("gap.epw"), {"gap.epw:500: field 7 (dry bulb temperature): 10 "
                                   "consecutive hours missing",
                                   "lines 500..509"});
}

TEST_F(BrokenEpw, DesignConditionsOutsideTheRangeNameTheFile) {
    // Issue 14: a design-condition dry bulb of −70 gave a psychrometrics error without a file.
    setField(lines_, 2, 7, "-75");  // heating 99.6 % dry bulb
    expectError(write("heating.epw"),
                {"heating.epw:2: field 7 (heating 99.6 % dry bulb): -75 °C is outside the EPW "
                 "range -70..70 °C"});
    lines_ = linesOf(kMilwaukee);
    setField(lines_, 2, 24, "-70");  // cooling 0.4 % dry bulb, below its coincident wet bulb
    expectError(write("cooling.epw"),
                {"cooling.epw:2: field 25 (cooling 0.4 % mean coincident wet bulb)",
                 "dry bulb -70.0 °C with wet bulb 23.7 °C is not possible moist air"});
    lines_ = linesOf(kMilwaukee);
    setField(lines_, 2, 23, "-3");  // daily range
    expectError(write("range.epw"), {"range.epw:2: field 23 (cooling dry bulb range)"});
}

TEST_F(BrokenEpw, PathsThatCannotBeLookedUpAreInputErrors) {
    // Issue 14: "filesystem error: status: File name too long", exit 1.
    expectError(dir_ / (std::string(300, 'w') + ".epw"), {"cannot access weather file", "long"});
    expectError(fs::path(std::string(5000, 'w') + ".epw"), {"cannot access weather file"});
    expectError(dir_, {"is a directory"});
}

TEST_F(BrokenEpw, EmptyDesignConditionsAreComputedFromTheHours) {
    lines_[1] = "DESIGN CONDITIONS,0";
    const Weather w = readEpw(write("nodesign.epw"));
    const DesignConditions& d = w.designConditions();
    const DesignConditions& file = milwaukee().designConditions();
    EXPECT_FALSE(d.heating_from_file);
    EXPECT_FALSE(d.cooling_from_file);
    EXPECT_EQ(d.source, "computed from the 8760 hourly rows");
    EXPECT_EQ(d.hottest_month, 7);
    EXPECT_EQ(d.coldest_month, 1);
    // One typical year against the Handbook's multi-year statistics (see epw.h).
    EXPECT_NEAR(d.cooling_db_0_4, file.cooling_db_0_4, 1.5);
    EXPECT_NEAR(d.cooling_mcwb_0_4, file.cooling_mcwb_0_4, 1.5);
    EXPECT_NEAR(d.evaporation_wb_0_4, file.evaporation_wb_0_4, 1.5);
    EXPECT_NEAR(d.heating_db_99_6, file.heating_db_99_6, 3.0);
    // By construction 0.4 % of the hours (35.04) lie above the 0.4 % dry bulb; the file's 0.1 K
    // resolution makes ties, so count strictly above and at-or-above.
    std::size_t above = 0, at_or_above = 0;
    for (double T : w.dryBulb()) {
        above += T > d.cooling_db_0_4 + 1e-9;
        at_or_above += T >= d.cooling_db_0_4 - 1e-9;
    }
    EXPECT_LE(above, 35u);
    EXPECT_GE(at_or_above, 35u);
    EXPECT_GT(d.cooling_db_0_4, d.cooling_db_1);
    EXPECT_GT(d.cooling_db_1, d.cooling_db_2);

    // A value that is there but is not a number is an error, not a silent recomputation.
    lines_ = linesOf(kMilwaukee);
    auto f = splitCsv(lines_[1]);
    std::size_t cooling = 0;
    while (f[cooling] != "Cooling") ++cooling;
    f[cooling + 3] = "hot";
    lines_[1] = joinCsv(f);
    expectError(write("design.epw"), {"design.epw:2: field " + std::to_string(cooling + 4) +
                                      " (cooling 0.4 % dry bulb): 'hot' is not a number"});
}

}  // namespace
}  // namespace dctwin::weather
