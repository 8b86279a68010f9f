#include "core/weather/epw.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "core/errors.h"
#include "core/json.h"
#include "core/units.h"
#include "core/weather/psychrometrics.h"

namespace dctwin::weather {
namespace {

using units::celsiusToKelvin;

constexpr std::size_t kHeaderLines = 8;
constexpr std::size_t kFieldsPerRow = 35;
constexpr std::array<int, 12> kDaysInMonth = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
constexpr std::array<std::string_view, kHeaderLines> kHeaderKeywords = {
    "LOCATION",
    "DESIGN CONDITIONS",
    "TYPICAL/EXTREME PERIODS",
    "GROUND TEMPERATURES",
    "HOLIDAYS/DAYLIGHT SAVINGS",
    "COMMENTS 1",
    "COMMENTS 2",
    "DATA PERIODS",
};
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// 1-based field numbers of an hourly row (EPW data dictionary).
enum Field : int {
    kMonth = 2,
    kDay = 3,
    kHour = 4,
    kDryBulb = 7,
    kDewPoint = 8,
    kRelativeHumidity = 9,
    kPressure = 10,
    kWindSpeed = 22,
};

// A quantity read from an hourly row: its dictionary name, unit for messages, valid range, and
// the value at or above which the dictionary means "missing".
struct Quantity {
    int field;
    std::string_view name;
    std::string_view unit;
    double lo, hi, missing;
};
constexpr Quantity kDryBulbQ{kDryBulb, "dry bulb temperature", "°C", -70.0, 70.0, 99.9};
constexpr Quantity kDewPointQ{kDewPoint, "dew point temperature", "°C", -70.0, 70.0, 99.9};
constexpr Quantity kRelHumQ{kRelativeHumidity, "relative humidity", "%", 0.0, 110.0, 999.0};
constexpr Quantity kPressureQ{kPressure, "atmospheric station pressure", "Pa", 31000.0, 120000.0,
                              999999.0};
constexpr Quantity kWindQ{kWindSpeed, "wind speed", "m/s", 0.0, 40.0, 999.0};

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// Shortens a line or field for quoting in a message.
std::string quote(std::string_view s, std::size_t max = 60) {
    if (s.size() <= max) return std::string(s);
    return fmt::format("{}...", s.substr(0, max));
}

// Splits at commas into `out` (reused between rows to avoid allocation); returns the count.
std::size_t splitFields(std::string_view line, std::vector<std::string_view>& out) {
    out.clear();
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = line.find(',', start);
        if (comma == std::string_view::npos) {
            out.push_back(line.substr(start));
            return out.size();
        }
        out.push_back(line.substr(start, comma - start));
        start = comma + 1;
    }
}

std::optional<double> toDouble(std::string_view s) {
    s = trim(s);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    double v = 0.0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(v)) {
        return std::nullopt;
    }
    return v;
}

std::optional<int> toInt(std::string_view s) {
    s = trim(s);
    int v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

int dayOfYear(int month, int day) {
    int doy = day;
    for (int m = 1; m < month; ++m) doy += kDaysInMonth[m - 1];
    return doy;
}

// The value at rank ceil(q·n) of the ascending values: at most a fraction q of them lie below
// it and at most 1 − q above, which is how ASHRAE defines an "X % exceeded" design value.
double quantile(const std::vector<double>& sorted, double q) {
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
    return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

// Mean of `other` over the hours whose `primary` is within ±0.5 K of `value` (ASHRAE's "mean
// coincident" temperature), or `other` at the nearest hour if that band is empty.
double meanCoincident(const std::vector<double>& primary, const std::vector<double>& other,
                      double value) {
    double sum = 0.0;
    std::size_t n = 0, nearest = 0;
    for (std::size_t i = 0; i < primary.size(); ++i) {
        const double d = std::abs(primary[i] - value);
        if (d <= 0.5) {
            sum += other[i];
            ++n;
        }
        if (d < std::abs(primary[nearest] - value)) nearest = i;
    }
    return n > 0 ? sum / static_cast<double>(n) : other[nearest];
}

class Parser {
public:
    Parser(std::string_view text, std::string name) : text_(text), name_(std::move(name)) {}

    Location location;
    std::vector<double> db, dp, rh, p, wind;  // raw, in file units, NaN = missing
    std::vector<std::string_view> design_fields;

    // Reads everything; rows come back in calendar order (checked).
    void parse() {
        if (text_.empty()) {
            throw InputError(fmt::format("{}: file is empty, not an EPW weather file", name_));
        }
        std::vector<std::string_view> fields;
        fields.reserve(kFieldsPerRow + 1);
        for (auto& v : {&db, &dp, &rh, &p, &wind}) v->reserve(Weather::kHours);

        std::size_t blank_line = 0;  // first blank line seen after the header, 0 if none
        while (nextLine()) {
            if (line_no_ == 1 && line_.substr(0, 3) == "\xEF\xBB\xBF") line_.remove_prefix(3);
            if (line_no_ <= kHeaderLines) {
                parseHeaderLine(fields);
                continue;
            }
            if (trim(line_).empty()) {
                if (blank_line == 0) blank_line = line_no_;
                continue;
            }
            if (blank_line != 0) {
                fail(blank_line, "blank line inside the hourly data");
            }
            if (db.size() == Weather::kHours) {
                fail(line_no_, fmt::format("unexpected row after the {} hourly rows of a 365-day "
                                           "year (leap years and multi-year files are not "
                                           "supported)",
                                           Weather::kHours));
            }
            parseRow(fields);
        }
        if (line_no_ < kHeaderLines) {
            throw InputError(fmt::format(
                "{}: file ends at line {}, inside the {} EPW header lines (expected {} hourly "
                "rows after them)",
                name_, line_no_, kHeaderLines, Weather::kHours));
        }
        if (db.size() != Weather::kHours) {
            throw InputError(
                fmt::format("{}: expected {} hourly rows, found {} (file ends at line {})", name_,
                            Weather::kHours, db.size(), line_no_));
        }
    }

    [[noreturn]] void fail(std::size_t line, std::string_view what) const {
        throw InputError(fmt::format("{}:{}: {}", name_, line, what));
    }
    [[noreturn]] void failField(std::size_t line, int field, std::string_view field_name,
                                std::string_view what) const {
        throw InputError(
            fmt::format("{}:{}: field {} ({}): {}", name_, line, field, field_name, what));
    }

    std::size_t lineOfRow(std::size_t i) const { return kHeaderLines + 1 + i; }
    const std::string& name() const { return name_; }

private:
    bool nextLine() {
        if (pos_ >= text_.size()) return false;
        std::size_t end = text_.find('\n', pos_);
        if (end == std::string_view::npos) end = text_.size();
        line_ = text_.substr(pos_, end - pos_);
        if (!line_.empty() && line_.back() == '\r') line_.remove_suffix(1);
        pos_ = end + 1;
        ++line_no_;
        return true;
    }

    void parseHeaderLine(std::vector<std::string_view>& fields) {
        const std::string_view keyword = kHeaderKeywords[line_no_ - 1];
        splitFields(line_, fields);
        if (trim(fields[0]) != keyword) {
            if (line_no_ == 1) {
                fail(1, fmt::format("header is not EPW: the first line must start with "
                                    "'LOCATION,', found '{}'",
                                    quote(line_)));
            }
            fail(line_no_, fmt::format("expected the EPW header line '{},...' (line {} of 8), "
                                       "found '{}'",
                                       keyword, line_no_, quote(line_)));
        }
        if (line_no_ == 1) {
            parseLocation(fields);
        } else if (line_no_ == 2) {
            // Kept as views into text_, which outlives the parser; interpreted after the rows,
            // since missing design values are computed from them.
            design_fields = fields;
        } else if (line_no_ == kHeaderLines) {
            parseDataPeriods(fields);
        }
    }

    double headerNumber(const std::vector<std::string_view>& fields, std::size_t index,
                        std::string_view what) const {
        if (index >= fields.size()) {
            failField(line_no_, static_cast<int>(index + 1), what, "missing");
        }
        const auto v = toDouble(fields[index]);
        if (!v) {
            failField(line_no_, static_cast<int>(index + 1), what,
                      fmt::format("'{}' is not a number", quote(fields[index])));
        }
        return *v;
    }

    void parseLocation(const std::vector<std::string_view>& f) {
        if (f.size() < 10) {
            fail(1, fmt::format("LOCATION line has {} comma-separated fields, expected 10 "
                                "(LOCATION, city, state, country, source, WMO, latitude, "
                                "longitude, time zone, elevation)",
                                f.size()));
        }
        location.city = trim(f[1]);
        location.state = trim(f[2]);
        location.country = trim(f[3]);
        location.source = trim(f[4]);
        location.wmo = trim(f[5]);
        location.latitude = headerNumber(f, 6, "latitude");
        location.longitude = headerNumber(f, 7, "longitude");
        location.time_zone = headerNumber(f, 8, "time zone");
        location.elevation = headerNumber(f, 9, "elevation");
        if (std::abs(location.latitude) > 90.0 || std::abs(location.longitude) > 180.0 ||
            std::abs(location.time_zone) > 14.0) {
            fail(1, fmt::format("latitude {}, longitude {} or time zone {} is out of range "
                                "(±90°, ±180°, ±14 h)",
                                location.latitude, location.longitude, location.time_zone));
        }
    }

    void parseDataPeriods(const std::vector<std::string_view>& f) {
        const double periods = headerNumber(f, 1, "number of data periods");
        const double per_hour = headerNumber(f, 2, "number of records per hour");
        if (periods != 1.0) {
            failField(kHeaderLines, 2, "number of data periods",
                      fmt::format("{} data periods; only files with one (a whole year) are "
                                  "supported",
                                  periods));
        }
        if (per_hour != 1.0) {
            failField(
                kHeaderLines, 3, "number of records per hour",
                fmt::format("{} records per hour; only hourly files are supported", per_hour));
        }
    }

    void parseRow(std::vector<std::string_view>& fields) {
        const std::size_t n = splitFields(line_, fields);
        if (n != kFieldsPerRow) {
            fail(line_no_,
                 fmt::format("expected {} comma-separated fields, found {}", kFieldsPerRow, n));
        }
        const int month = rowInt(fields, kMonth, "month");
        const int day = rowInt(fields, kDay, "day");
        const int hour = rowInt(fields, kHour, "hour");
        if (month < 1 || month > 12) {
            failField(line_no_, kMonth, "month", fmt::format("{} is outside 1..12", month));
        }
        if (month == 2 && day == 29) {
            failField(line_no_, kDay, "day",
                      "Feb 29: leap days are not supported (a typical year has 365 days; drop "
                      "the Feb 29 rows)");
        }
        if (day < 1 || day > kDaysInMonth[month - 1]) {
            failField(line_no_, kDay, "day",
                      fmt::format("{} is outside 1..{} for month {}", day, kDaysInMonth[month - 1],
                                  month));
        }
        if (hour < 1 || hour > 24) {
            failField(line_no_, kHour, "hour", fmt::format("{} is outside 1..24", hour));
        }
        const std::size_t index =
            static_cast<std::size_t>((dayOfYear(month, day) - 1) * 24 + (hour - 1));
        const std::size_t expected = db.size();
        if (index != expected) {
            const HourStamp want = Weather::stamp(expected);
            const std::string_view problem =
                index < expected ? "duplicated or out of order" : "hours missing before it";
            fail(line_no_, fmt::format("month/day/hour {}/{} hour {} is {}: expected {}/{} hour "
                                       "{} here (rows must run Jan 1 hour 1 to Dec 31 hour 24, "
                                       "each once)",
                                       month, day, hour, problem, want.month, want.day, want.hour));
        }
        db.push_back(rowValue(fields, kDryBulbQ));
        dp.push_back(rowValue(fields, kDewPointQ));
        rh.push_back(rowValue(fields, kRelHumQ));
        p.push_back(rowValue(fields, kPressureQ));
        wind.push_back(rowValue(fields, kWindQ));
        if (db.back() + 0.5 < dp.back()) {
            failField(line_no_, kDewPoint, kDewPointQ.name,
                      fmt::format("{} °C is above the dry bulb {} °C", dp.back(), db.back()));
        }
    }

    int rowInt(const std::vector<std::string_view>& f, int field, std::string_view what) const {
        const auto v = toInt(f[field - 1]);
        if (!v) {
            failField(line_no_, field, what,
                      fmt::format("'{}' is not an integer", quote(f[field - 1])));
        }
        return *v;
    }

    double rowValue(const std::vector<std::string_view>& f, const Quantity& q) const {
        const auto v = toDouble(f[q.field - 1]);
        if (!v) {
            failField(line_no_, q.field, q.name,
                      fmt::format("'{}' is not a number", quote(f[q.field - 1])));
        }
        if (*v >= q.missing) return kNaN;
        if (*v < q.lo || *v > q.hi) {
            failField(line_no_, q.field, q.name,
                      fmt::format("{} {} is outside the EPW range {}..{} {} (missing values "
                                  "are written {})",
                                  *v, q.unit, q.lo, q.hi, q.unit, q.missing));
        }
        return *v;
    }

    std::string_view text_;
    std::string name_;
    std::size_t pos_ = 0;
    std::size_t line_no_ = 0;
    std::string_view line_;
};

// Fills runs of NaN no longer than kMaxFilledGap by linear interpolation between the valid
// values around them, treating the year as periodic. Returns the number of values filled.
std::size_t fillGaps(std::vector<double>& v, const Quantity& q, const Parser& parser) {
    const std::size_t n = v.size();
    std::size_t first_valid = n;
    for (std::size_t i = 0; i < n; ++i) {
        if (!std::isnan(v[i])) {
            first_valid = i;
            break;
        }
    }
    if (first_valid == n) {
        parser.failField(parser.lineOfRow(0), q.field, q.name,
                         fmt::format("missing (EPW marker {}) in every row", q.missing));
    }
    std::size_t filled = 0;
    // Walk the ring once starting at a valid value, so every gap has a valid left neighbour.
    std::size_t left = first_valid;
    for (std::size_t k = 1; k <= n; ++k) {
        const std::size_t i = (first_valid + k) % n;
        if (std::isnan(v[i])) continue;
        const std::size_t distance = (i + n - left) % n == 0 ? n : (i + n - left) % n;
        const std::size_t gap = distance - 1;
        if (gap > Weather::kMaxFilledGap) {
            const std::size_t start = (left + 1) % n;
            parser.failField(
                parser.lineOfRow(start), q.field, q.name,
                fmt::format("{} consecutive hours missing (EPW marker {}), lines "
                            "{}..{}; at most {} are filled by interpolation",
                            gap, q.missing, parser.lineOfRow(start),
                            parser.lineOfRow((left + gap) % n), Weather::kMaxFilledGap));
        }
        for (std::size_t g = 1; g <= gap; ++g) {
            const double w = static_cast<double>(g) / static_cast<double>(gap + 1);
            v[(left + g) % n] = (1.0 - w) * v[left] + w * v[i];
        }
        filled += gap;
        left = i;
    }
    return filled;
}

DesignConditions designConditions(const std::vector<std::string_view>& f, const Parser& parser,
                                  const std::vector<double>& T_db, const std::vector<double>& T_wb,
                                  const std::vector<double>& pressure) {
    DesignConditions d;
    auto find = [&](std::string_view key) -> std::size_t {
        for (std::size_t i = 0; i < f.size(); ++i) {
            if (trim(f[i]) == key) return i;
        }
        return f.size();
    };
    // Parses fields [first, first + count) if all are present and non-empty; a value that is
    // present but not a number is an error, since the line is then not what it claims.
    auto block =
        [&](std::size_t first, std::size_t count,
            const std::vector<std::string_view>& names) -> std::optional<std::vector<double>> {
        if (first + count > f.size()) return std::nullopt;
        std::vector<double> out;
        for (std::size_t k = 0; k < count; ++k) {
            const std::string_view s = trim(f[first + k]);
            if (s.empty()) return std::nullopt;
            const auto v = toDouble(s);
            if (!v) {
                parser.failField(2, static_cast<int>(first + k + 1), names[k],
                                 fmt::format("'{}' is not a number", quote(s)));
            }
            out.push_back(*v);
        }
        return out;
    };
    auto month = [&](double m, std::size_t index, std::string_view what) {
        if (m != std::floor(m) || m < 1 || m > 12) {
            parser.failField(2, static_cast<int>(index + 1), what,
                             fmt::format("{} is not a month 1..12", m));
        }
        return static_cast<int>(m);
    };
    // A design temperature from the file must lie in the EPW range of hourly temperatures;
    // otherwise it fails later, in psychrometrics or a heat rejection model, without the file.
    auto temperature = [&](double t_C, std::size_t index, std::string_view what) {
        if (!(t_C >= kDryBulbQ.lo && t_C <= kDryBulbQ.hi)) {
            parser.failField(2, static_cast<int>(index + 1), what,
                             fmt::format("{} °C is outside the EPW range {}..{} °C", t_C,
                                         kDryBulbQ.lo, kDryBulbQ.hi));
        }
        return celsiusToKelvin(t_C);
    };
    double p_mean = 0.0;
    for (double p : pressure) p_mean += p;
    p_mean = pressure.empty() ? 101325.0 : p_mean / static_cast<double>(pressure.size());
    // A wet bulb with its dry bulb must describe real air: not above the dry bulb (beyond the
    // 0.5 K the dictionary tolerates for dew points) and not below the wet bulb of dry air.
    auto pair = [&](double db, double wb, std::size_t index, std::string_view what) {
        bool ok = wb <= db + 0.5;
        if (ok) {
            try {
                ok = psychro::humidityRatioFromWetBulb(db, std::min(wb, db), p_mean) >= 0.0;
            } catch (const Error&) {
                ok = false;
            }
        }
        if (!ok) {
            parser.failField(
                2, static_cast<int>(index + 1), what,
                fmt::format("dry bulb {:.1f} °C with wet bulb {:.1f} °C is not possible moist "
                            "air at {:.0f} Pa (the wet bulb must lie between that of dry air and "
                            "the dry bulb)",
                            units::kelvinToCelsius(db), units::kelvinToCelsius(wb), p_mean));
        }
    };
    if (f.size() > 2) d.source = std::string(trim(f[2]));

    const std::size_t h = find("Heating");
    if (h < f.size()) {
        if (auto v = block(
                h + 1, 3,
                {"heating coldest month", "heating 99.6 % dry bulb", "heating 99 % dry bulb"})) {
            d.heating_from_file = true;
            d.coldest_month = month((*v)[0], h + 1, "heating coldest month");
            d.heating_db_99_6 = temperature((*v)[1], h + 2, "heating 99.6 % dry bulb");
            d.heating_db_99 = temperature((*v)[2], h + 3, "heating 99 % dry bulb");
        }
    }
    const std::size_t c = find("Cooling");
    if (c < f.size()) {
        if (auto v =
                block(c + 1, 14,
                      {"cooling hottest month", "cooling dry bulb range", "cooling 0.4 % dry bulb",
                       "cooling 0.4 % mean coincident wet bulb", "cooling 1 % dry bulb",
                       "cooling 1 % mean coincident wet bulb", "cooling 2 % dry bulb",
                       "cooling 2 % mean coincident wet bulb", "evaporation 0.4 % wet bulb",
                       "evaporation 0.4 % mean coincident dry bulb", "evaporation 1 % wet bulb",
                       "evaporation 1 % mean coincident dry bulb", "evaporation 2 % wet bulb",
                       "evaporation 2 % mean coincident dry bulb"})) {
            const auto& x = *v;
            d.cooling_from_file = true;
            d.hottest_month = month(x[0], c + 1, "cooling hottest month");
            d.cooling_db_range = x[1];
            if (!(x[1] >= 0.0 && x[1] <= kDryBulbQ.hi - kDryBulbQ.lo)) {
                parser.failField(2, static_cast<int>(c + 3), "cooling dry bulb range",
                                 fmt::format("{} K is not a daily range 0..{} K", x[1],
                                             kDryBulbQ.hi - kDryBulbQ.lo));
            }
            const std::array<std::string_view, 14> names = {
                "",
                "",
                "cooling 0.4 % dry bulb",
                "cooling 0.4 % mean coincident wet bulb",
                "cooling 1 % dry bulb",
                "cooling 1 % mean coincident wet bulb",
                "cooling 2 % dry bulb",
                "cooling 2 % mean coincident wet bulb",
                "evaporation 0.4 % wet bulb",
                "evaporation 0.4 % mean coincident dry bulb",
                "evaporation 1 % wet bulb",
                "evaporation 1 % mean coincident dry bulb",
                "evaporation 2 % wet bulb",
                "evaporation 2 % mean coincident dry bulb"};
            std::array<double, 14> K{};
            for (std::size_t k = 2; k < 14; ++k) K[k] = temperature(x[k], c + 1 + k, names[k]);
            for (std::size_t k = 2; k < 8; k += 2) pair(K[k], K[k + 1], c + 2 + k, names[k + 1]);
            for (std::size_t k = 8; k < 14; k += 2) pair(K[k + 1], K[k], c + 1 + k, names[k]);
            d.cooling_db_0_4 = K[2];
            d.cooling_mcwb_0_4 = K[3];
            d.cooling_db_1 = K[4];
            d.cooling_mcwb_1 = K[5];
            d.cooling_db_2 = K[6];
            d.cooling_mcwb_2 = K[7];
            d.evaporation_wb_0_4 = K[8];
            d.evaporation_mcdb_0_4 = K[9];
            d.evaporation_wb_1 = K[10];
            d.evaporation_mcdb_1 = K[11];
            d.evaporation_wb_2 = K[12];
            d.evaporation_mcdb_2 = K[13];
        }
    }
    const std::size_t e = find("Extremes");
    if (e < f.size()) {
        std::vector<double> x;
        std::size_t k = e + 1;
        for (; k < f.size(); ++k) {
            const auto v = toDouble(trim(f[k]));
            if (!v) break;
            x.push_back(*v);
        }
        if (x.size() >= 8) {
            d.extremes_from_file = true;
            for (std::size_t n = 0; n < 4; ++n) {
                const std::size_t i = x.size() - 8 + 2 * n + 1;  // max of the pair
                d.extreme_db_max[n] = temperature(
                    x[i], e + 1 + i,
                    fmt::format("{}-year extreme dry bulb", DesignConditions::kReturnPeriods[n]));
            }
        }
    }
    if (d.heating_from_file && d.cooling_from_file) return d;

    // Computed from the hours (see epw.h for the definitions).
    std::array<double, 12> month_sum{};
    std::array<int, 12> month_n{};
    for (std::size_t i = 0; i < T_db.size(); ++i) {
        const int m = Weather::stamp(i).month - 1;
        month_sum[m] += T_db[i];
        ++month_n[m];
    }
    int coldest = 0, hottest = 0;
    for (int m = 1; m < 12; ++m) {
        if (month_sum[m] / month_n[m] < month_sum[coldest] / month_n[coldest]) coldest = m;
        if (month_sum[m] / month_n[m] > month_sum[hottest] / month_n[hottest]) hottest = m;
    }
    std::vector<double> db_sorted = T_db, wb_sorted = T_wb;
    std::sort(db_sorted.begin(), db_sorted.end());
    std::sort(wb_sorted.begin(), wb_sorted.end());
    if (!d.heating_from_file) {
        d.coldest_month = coldest + 1;
        d.heating_db_99_6 = quantile(db_sorted, 0.004);
        d.heating_db_99 = quantile(db_sorted, 0.01);
    }
    if (!d.cooling_from_file) {
        d.hottest_month = hottest + 1;
        double range_sum = 0.0;
        int days = 0;
        for (std::size_t i = 0; i < T_db.size(); i += 24) {
            if (Weather::stamp(i).month != d.hottest_month) continue;
            const auto [lo, hi] = std::minmax_element(T_db.begin() + static_cast<long>(i),
                                                      T_db.begin() + static_cast<long>(i + 24));
            range_sum += *hi - *lo;
            ++days;
        }
        d.cooling_db_range = range_sum / days;
        d.cooling_db_0_4 = quantile(db_sorted, 0.996);
        d.cooling_db_1 = quantile(db_sorted, 0.99);
        d.cooling_db_2 = quantile(db_sorted, 0.98);
        d.cooling_mcwb_0_4 = meanCoincident(T_db, T_wb, d.cooling_db_0_4);
        d.cooling_mcwb_1 = meanCoincident(T_db, T_wb, d.cooling_db_1);
        d.cooling_mcwb_2 = meanCoincident(T_db, T_wb, d.cooling_db_2);
        d.evaporation_wb_0_4 = quantile(wb_sorted, 0.996);
        d.evaporation_wb_1 = quantile(wb_sorted, 0.99);
        d.evaporation_wb_2 = quantile(wb_sorted, 0.98);
        d.evaporation_mcdb_0_4 = meanCoincident(T_wb, T_db, d.evaporation_wb_0_4);
        d.evaporation_mcdb_1 = meanCoincident(T_wb, T_db, d.evaporation_wb_1);
        d.evaporation_mcdb_2 = meanCoincident(T_wb, T_db, d.evaporation_wb_2);
    }
    const std::string computed = "computed from the 8760 hourly rows";
    d.source = d.heating_from_file || d.cooling_from_file
                   ? fmt::format("{} ({} values {})", d.source,
                                 d.heating_from_file ? "cooling" : "heating", computed)
                   : computed;
    return d;
}

}  // namespace

HourStamp Weather::stamp(std::size_t i) {
    HourStamp s;
    std::size_t day_index = (i % kHours) / 24;
    s.hour = static_cast<int>(i % 24) + 1;
    s.month = 1;
    while (day_index >= static_cast<std::size_t>(kDaysInMonth[s.month - 1])) {
        day_index -= static_cast<std::size_t>(kDaysInMonth[s.month - 1]);
        ++s.month;
    }
    s.day = static_cast<int>(day_index) + 1;
    return s;
}

WeatherSample Weather::row(std::size_t i) const {
    return {dry_bulb_.at(i), dew_point_.at(i),      wet_bulb_.at(i),  rh_.at(i),
            pressure_.at(i), humidity_ratio_.at(i), wind_speed_.at(i)};
}

std::string Weather::describeRow(std::size_t i) const {
    const HourStamp s = stamp(i);
    return fmt::format("{}:{} ({:02d}-{:02d} hour {})", quoteValue(name_), fileLine(i), s.month,
                       s.day, s.hour);
}

std::pair<std::size_t, std::size_t> Weather::rowsAround(double seconds_since_jan1) const {
    const std::size_t n = hourCount();
    if (n == 0 || !std::isfinite(seconds_since_jan1)) return {0, 0};
    const double period = static_cast<double>(n) * 3600.0;
    double u = std::fmod(seconds_since_jan1, period);
    if (u < 0.0) u += period;
    const double x = u / 3600.0 - 1.0;
    if (x < 0.0) return {n - 1, 0};
    const std::size_t lo = std::min(static_cast<std::size_t>(x), n - 1);
    return {lo, (lo + 1) % n};
}

WeatherSample Weather::at(double seconds_since_jan1) const {
    if (!std::isfinite(seconds_since_jan1)) {
        throw InputError(fmt::format("{}: weather requested at time {} s, which is not finite",
                                     name_, seconds_since_jan1));
    }
    const std::size_t n = hourCount();
    const double period = static_cast<double>(n) * 3600.0;
    double u = std::fmod(seconds_since_jan1, period);
    if (u < 0.0) u += period;
    // Sample k sits at (k + 1) h; x is the position in samples, x = -1 meaning t = 0 = last row.
    const double x = u / 3600.0 - 1.0;
    std::size_t lo, hi;
    double w;
    if (x < 0.0) {
        lo = n - 1;
        hi = 0;
        w = x + 1.0;
    } else {
        lo = std::min(static_cast<std::size_t>(x), n - 1);
        hi = (lo + 1) % n;
        w = x - static_cast<double>(lo);
    }
    auto lerp = [lo, hi, w](const std::vector<double>& v) { return v[lo] + w * (v[hi] - v[lo]); };
    return {lerp(dry_bulb_), lerp(dew_point_),      lerp(wet_bulb_),  lerp(rh_),
            lerp(pressure_), lerp(humidity_ratio_), lerp(wind_speed_)};
}

Weather parseEpw(std::string_view text, std::string name) {
    Parser parser(text, name);
    parser.parse();

    Weather w;
    w.name_ = std::move(name);
    w.location_ = parser.location;

    // Missing values: dew point from RH where RH is present, then short gaps interpolated, then
    // RH from dry bulb and dew point (the header comment of epw.h gives the rules).
    std::size_t filled = 0;
    auto& db = parser.db;
    auto& dp = parser.dp;
    auto& rh = parser.rh;
    filled += fillGaps(db, kDryBulbQ, parser);
    for (std::size_t i = 0; i < dp.size(); ++i) {
        if (std::isnan(dp[i]) && !std::isnan(rh[i]) && rh[i] > 0.0) {
            dp[i] = units::kelvinToCelsius(
                psychro::dewPointFromRelativeHumidity(celsiusToKelvin(db[i]), rh[i] / 100.0));
            ++filled;
        }
    }
    filled += fillGaps(dp, kDewPointQ, parser);
    filled += fillGaps(parser.p, kPressureQ, parser);
    filled += fillGaps(parser.wind, kWindQ, parser);

    const std::size_t n = db.size();
    for (auto* v : {&w.dry_bulb_, &w.dew_point_, &w.wet_bulb_, &w.rh_, &w.file_rh_, &w.pressure_,
                    &w.humidity_ratio_, &w.wind_speed_}) {
        v->resize(n);
    }
    for (std::size_t i = 0; i < n; ++i) {
        try {
            const double T_db = celsiusToKelvin(db[i]);
            // Interpolated gaps can put the dew point a little above the dry bulb.
            const double T_dp = std::min(celsiusToKelvin(dp[i]), T_db);
            const double p = parser.p[i];
            w.dry_bulb_[i] = T_db;
            w.dew_point_[i] = T_dp;
            w.pressure_[i] = p;
            w.wind_speed_[i] = parser.wind[i];
            w.humidity_ratio_[i] = psychro::humidityRatioFromDewPoint(T_dp, p);
            w.wet_bulb_[i] = psychro::wetBulbFromDewPoint(T_db, T_dp, p);
            w.rh_[i] = psychro::relativeHumidity(T_db, T_dp);
            if (std::isnan(rh[i])) {
                w.file_rh_[i] = w.rh_[i];
                ++filled;
            } else {
                w.file_rh_[i] = rh[i] / 100.0;
            }
        } catch (const Error& e) {
            parser.fail(parser.lineOfRow(i), e.what());
        }
    }
    w.filled_ = filled;
    w.design_ =
        designConditions(parser.design_fields, parser, w.dry_bulb_, w.wet_bulb_, w.pressure_);
    return w;
}

Weather readEpw(const std::filesystem::path& path) {
    const std::string name = path.string();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        // ec is set for paths that cannot even be looked up ("File name too long").
        throw InputError(
            fmt::format("{}: {}", quoteValue(name),
                        ec ? fmt::format("cannot access weather file: {}", ec.message())
                           : std::string("weather file does not exist")));
    }
    if (std::filesystem::is_directory(path, ec)) {
        throw InputError(fmt::format("{}: is a directory, not an EPW weather file", name));
    }
    // One read of the whole file (about 1.6 MB) keeps parsing free of stream overhead.
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(name.c_str(), "rb"),
                                                         &std::fclose);
    if (!file) {
        throw InputError(
            fmt::format("{}: cannot open weather file: {}", name, std::strerror(errno)));
    }
    std::string text;
    // Sized once from the file's length where it is known (not for a pipe), so the text is not
    // copied as it grows.
    if (const auto size = std::filesystem::file_size(path, ec); !ec) text.reserve(size + 1);
    char buffer[1 << 16];
    std::size_t got;
    while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) text.append(buffer, got);
    if (std::ferror(file.get())) {
        throw InputError(fmt::format("{}: read error: {}", name, std::strerror(errno)));
    }
    return parseEpw(text, name);
}

std::shared_ptr<const Weather> readEpwShared(const std::filesystem::path& path) {
    struct Entry {
        std::string path;
        std::uintmax_t size;
        std::filesystem::file_time_type mtime;
        std::shared_ptr<const Weather> weather;
    };
    static std::mutex mutex;
    static std::vector<Entry> cache;  // most recently used last
    constexpr std::size_t kKept = 8;

    std::error_code size_ec, time_ec;
    const std::uintmax_t size = std::filesystem::file_size(path, size_ec);
    const auto mtime = std::filesystem::last_write_time(path, time_ec);
    if (size_ec || time_ec) {
        // Not a regular file that can be looked at: readEpw says why (or reads a special file).
        return std::make_shared<const Weather>(readEpw(path));
    }
    // Held while parsing: the members of a threaded sweep ask for one file at once, and the
    // first parses it while the rest wait for it.
    const std::lock_guard<std::mutex> lock(mutex);
    const std::string key = path.string();
    for (auto it = cache.begin(); it != cache.end(); ++it) {
        if (it->path == key && it->size == size && it->mtime == mtime) {
            std::rotate(it, it + 1, cache.end());
            return cache.back().weather;
        }
    }
    auto weather = std::make_shared<const Weather>(readEpw(path));
    std::erase_if(cache, [&](const Entry& e) { return e.path == key; });
    if (cache.size() >= kKept) cache.erase(cache.begin());
    cache.push_back({key, size, mtime, weather});
    return weather;
}

}  // namespace dctwin::weather
