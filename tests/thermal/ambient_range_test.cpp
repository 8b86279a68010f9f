// Issue 14, thermal part: weather that is valid EPW (dry bulb down to −70 °C) but outside the
// heat rejection models' range is reported with the weather file, line and hour, not as an
// anonymous heat rejection failure ("dry cooler: ambient dry bulb −69.90 °C ...").
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/weather/epw.h"
#include "thermal/ambient.h"

namespace dctwin::thermal {
namespace {

const std::string kMilwaukee = std::string(DCTWIN_SOURCE_DIR) +
                               "/data/weather/USA_WI_Milwaukee-Mitchell.Intl.AP.726400_TMY3.epw";

/// Milwaukee with dry bulb and dew point of every row from `first_row` on replaced.
std::string coldCopy(std::size_t first_row) {
    std::ifstream in(kMilwaukee, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::string out;
    std::size_t pos = 0, line = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        std::string l = text.substr(pos, end - pos);
        ++line;
        if (line >= 9 + first_row) {
            std::vector<std::string> f;
            std::stringstream ls(l);
            std::string item;
            while (std::getline(ls, item, ',')) f.push_back(item);
            f[6] = "-69.9";  // field 7 dry bulb: inside the EPW range −70..70 °C
            f[7] = "-70.0";  // field 8 dew point
            l.clear();
            for (std::size_t i = 0; i < f.size(); ++i) l += (i ? "," : "") + f[i];
            if (text[end - 1] == '\r') l += '\r';
        }
        out += l + "\n";
        pos = end + 1;
    }
    return out;
}

TEST(AmbientRange, ColdWeatherNamesFileLineAndHour) {
    const auto w = std::make_shared<const weather::Weather>(
        weather::parseEpw(coldCopy(0), "cold.epw"));  // the EPW reader accepts it
    AmbientWeather a("weather", w, 0.0);
    std::vector<double> y(4);
    try {
        a.computeOutputs(5.5 * 3600.0, {}, {}, y);
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        const std::string msg = e.what();
        // t = 5.5 h blends rows 4 and 5 (hours ending 05:00 and 06:00): line 13 is row 4.
        EXPECT_NE(msg.find("cold.epw:13 (01-01 hour 5)"), std::string::npos) << msg;
        EXPECT_NE(msg.find("-69.90"), std::string::npos) << msg;
        EXPECT_NE(msg.find("19800 s"), std::string::npos) << msg;
    }
}

TEST(AmbientRange, ABadMonthDoesNotStopARunElsewhereInTheYear) {
    // Cold from row 8000 (late November) on; a July run never reaches it.
    const auto w =
        std::make_shared<const weather::Weather>(weather::parseEpw(coldCopy(8000), "late.epw"));
    AmbientWeather a("weather", w, 4400.0 * 3600.0);
    std::vector<double> y(4);
    EXPECT_NO_THROW(a.computeOutputs(10 * 3600.0, {}, {}, y));
    EXPECT_THROW(a.computeOutputs((8001.0 - 4400.0) * 3600.0, {}, {}, y), InputError);
}

}  // namespace
}  // namespace dctwin::thermal
