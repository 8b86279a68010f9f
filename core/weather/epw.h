#pragma once
// Hourly weather of one site from an EnergyPlus weather file (EPW): the boundary condition of
// heat rejection (dry coolers follow the dry bulb, towers and adiabatic coolers the wet bulb).
//
// File format (EnergyPlus "Auxiliary Programs", Weather Converter, EPW data dictionary):
// 8 header lines (LOCATION, DESIGN CONDITIONS, TYPICAL/EXTREME PERIODS, GROUND TEMPERATURES,
// HOLIDAYS/DAYLIGHT SAVINGS, COMMENTS 1, COMMENTS 2, DATA PERIODS), then one row per hour with
// 35 comma-separated fields. Fields used (1-based): 2 month, 3 day, 4 hour (1..24), 7 dry bulb
// [°C], 8 dew point [°C], 9 relative humidity [%], 10 station pressure [Pa], 22 wind speed
// [m/s]. CRLF or LF line endings. The year column (1) differs from month to month in a typical
// year and is ignored: rows are keyed on month/day/hour only.
//
// What the reader accepts (anything else is a dctwin::InputError naming file, line, field):
// - exactly 8760 rows in calendar order of a 365-day year (Jan 1 hour 1 .. Dec 31 hour 24);
//   duplicated, out-of-order or skipped hours, Feb 29, and invalid month/day/hour are
//   rejected, as are files with more than one data period or more than one record per hour.
// - values inside the EPW dictionary's ranges: dry bulb and dew point -70..70 °C, RH 0..110 %,
//   pressure 31000..120000 Pa, wind 0..40 m/s; dew point at most 0.5 K above the dry bulb.
// - missing values (dictionary markers: 99.9 for temperatures, 999 for RH and wind, 999999
//   for pressure): a run of up to kMaxFilledGap consecutive missing hours of one quantity is
//   filled by linear interpolation between the valid hours around it (wrapping over the year
//   end); a longer run is an error. A missing dew point is recomputed from dry bulb and RH when
//   the RH is present, a missing RH from dry bulb and dew point. filledValueCount() says how
//   many values were filled (0 for the files shipped in data/weather).
//
// Humidity comes from the dew point, not the RH column: derived per hour with
// core/weather/psychrometrics.h at the station pressure are the humidity ratio, the
// thermodynamic wet bulb and the relative humidity, all from dry bulb and dew point, so every
// sample is psychrometrically consistent. The RH column is kept (fileRelativeHumidity) but not
// used, because in the shipped files it often disagrees with dry bulb and dew point: by more
// than 5 % RH in 278 hours of Phoenix and 417 of Leesburg, up to 54 % RH in Pasco (e.g.
// Phoenix line 12: 5.0 °C, dew point -6.1 °C, RH 33 % where 42 % follows), apparently because
// gap-filled temperatures were not matched by the RH. The dew point also has 0.1 K resolution
// where RH is a whole percent. Below 0 °C the dew point is taken as a frost point (saturation
// over ice, the ASHRAE and EnergyPlus convention).
//
// Time: EPW hour h is the hour ending at h:00 local standard time, i.e. it covers (h−1, h].
// The reader places hour h's values at the END of that interval: row i (0-based, calendar
// order) is the sample at t_i = ((day_of_year − 1)·24 + h)·3600 s = (i + 1)·3600 s after
// midnight Jan 1, so the last row falls on t = 8760 h ≡ 0 (the year wraps). at(t) interpolates
// linearly between neighbouring samples and wraps around the year end, so a simulation may run
// over several years; between t = 0 and 1 h it blends Dec 31 hour 24 with Jan 1 hour 1. All
// quantities are interpolated linearly, each on its own (the interpolated wet bulb differs from
// a wet bulb recomputed from interpolated dry bulb and dew point by a few mK).
//
// Design conditions: from the DESIGN CONDITIONS line when it has them (ASHRAE Handbook
// Fundamentals ch. 14 layout: after "Heating" come the coldest month, then the 99.6 % and 99 %
// dry bulbs; after "Cooling" the hottest month, the dry-bulb daily range, 0.4 % DB, 0.4 % MCWB,
// 1 % DB, 1 % MCWB, 2 % DB, 2 % MCWB, 0.4 % WB, 0.4 % MCDB, 1 % WB, 1 % MCDB, 2 % WB, 2 % MCDB).
// When a block is absent (e.g. "DESIGN CONDITIONS,0") or any of its values is empty, it is
// computed from the 8760 hours instead, and flagged: an X % cooling value is the hourly value
// at rank ⌈(1 − X/100)·8760⌉ in ascending order, so that at most X % of the hours exceed it;
// an X % heating value (99.6 %, 99 %) is the one at rank ⌈(1 − X/100)·8760⌉, so that at most
// (100 − X) % of the hours are colder; a mean coincident temperature is the mean of the other
// quantity over the hours whose value lies within ±0.5 K of the design value (the nearest hour if
// none). Computed from one typical year, these differ from the Handbook's multi-year statistics:
// for the shipped files cooling dry bulbs by up to 1 K, wet bulbs by up to 3 K, heating values by
// up to 7 K (a typical year leaves out the cold extremes). Prefer the file's values.
#include <array>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dctwin::weather {

/// The LOCATION line.
struct Location {
    std::string city;
    std::string state;
    std::string country;
    std::string source;      // data set, e.g. "TMY3", "SRC-TMYx"
    std::string wmo;         // WMO station number (text: some carry letters or leading zeros)
    double latitude = 0.0;   // [deg] north positive
    double longitude = 0.0;  // [deg] east positive
    double time_zone = 0.0;  // [h] offset of local standard time from UTC
    double elevation = 0.0;  // [m] above sea level
};

/// ASHRAE climatic design conditions (see the header comment for their origin).
struct DesignConditions {
    bool heating_from_file = false;  // false: computed from the hourly data
    bool cooling_from_file = false;
    std::string source;     // the line's source field, or "computed from the 8760 hourly rows"
    int coldest_month = 0;  // [1..12]
    double heating_db_99_6 = 0.0;       // [K] dry bulb not reached 0.4 % of the year
    double heating_db_99 = 0.0;         // [K]
    int hottest_month = 0;              // [1..12]
    double cooling_db_range = 0.0;      // [K] mean daily dry-bulb range of the hottest month
    double cooling_db_0_4 = 0.0;        // [K] dry bulb exceeded 0.4 % of the year
    double cooling_mcwb_0_4 = 0.0;      // [K] mean coincident wet bulb
    double cooling_db_1 = 0.0;          // [K]
    double cooling_mcwb_1 = 0.0;        // [K]
    double cooling_db_2 = 0.0;          // [K]
    double cooling_mcwb_2 = 0.0;        // [K]
    double evaporation_wb_0_4 = 0.0;    // [K] wet bulb exceeded 0.4 % of the year
    double evaporation_mcdb_0_4 = 0.0;  // [K] mean coincident dry bulb
    double evaporation_wb_1 = 0.0;      // [K]
    double evaporation_mcdb_1 = 0.0;    // [K]
    double evaporation_wb_2 = 0.0;      // [K]
    double evaporation_mcdb_2 = 0.0;    // [K]
    /// n-year return-period extreme dry bulbs of the "Extremes" block (the last 8 numbers of
    /// the block: min and max for n = 5, 10, 20, 50 years, in both the 2005 layout with an
    /// extreme wet bulb and the 2009+ layout without); not computed from the hours.
    bool extremes_from_file = false;
    static constexpr std::array<int, 4> kReturnPeriods = {5, 10, 20, 50};  // [years]
    std::array<double, 4> extreme_db_max{};  // [K] per return period, when extremes_from_file
};

/// The weather at one instant.
struct WeatherSample {
    double dry_bulb = 0.0;           // [K]
    double dew_point = 0.0;          // [K]
    double wet_bulb = 0.0;           // [K] thermodynamic wet bulb
    double relative_humidity = 0.0;  // [-] fraction, from dry bulb and dew point
    double pressure = 0.0;           // [Pa] station pressure
    double humidity_ratio = 0.0;     // [kg water / kg dry air]
    double wind_speed = 0.0;         // [m/s]
};

/// Calendar position of a row.
struct HourStamp {
    int month = 0;  // 1..12
    int day = 0;    // 1..31
    int hour = 0;   // 1..24, the hour ending at hour:00
};

class Weather {
public:
    static constexpr std::size_t kHours = 8760;      // rows of a 365-day year
    static constexpr std::size_t kMaxFilledGap = 6;  // [h] longest run of missing values filled

    /// The file name as given to readEpw (used in messages).
    const std::string& name() const { return name_; }
    const Location& location() const { return location_; }
    const DesignConditions& designConditions() const { return design_; }
    std::size_t hourCount() const { return dry_bulb_.size(); }
    /// Missing values filled by interpolation or recomputation (see header comment).
    std::size_t filledValueCount() const { return filled_; }

    /// Weather at `seconds_since_jan1` (midnight Jan 1, local standard time), linear between
    /// hourly samples, periodic with a 365-day year. Throws InputError if t is not finite.
    WeatherSample at(double seconds_since_jan1) const;
    /// The stored values of row i (0-based, calendar order).
    WeatherSample row(std::size_t i) const;
    /// [s] the time row i stands for: the end of its hour, (i + 1)·3600.
    static double rowTime(std::size_t i) { return static_cast<double>(i + 1) * 3600.0; }
    /// Month, day and hour of row i (rows are in calendar order, so this is fixed by i).
    static HourStamp stamp(std::size_t i);
    /// 1-based line of row i in the file (8 header lines come first).
    static std::size_t fileLine(std::size_t i) { return 9 + i; }
    /// "<file>:<line> (MM-DD hour H)" for messages that trace a value back to its row.
    std::string describeRow(std::size_t i) const;
    /// The two rows whose samples at(t) blends.
    std::pair<std::size_t, std::size_t> rowsAround(double seconds_since_jan1) const;

    // Hourly series, one value per row, SI.
    const std::vector<double>& dryBulb() const { return dry_bulb_; }     // [K]
    const std::vector<double>& dewPoint() const { return dew_point_; }   // [K]
    const std::vector<double>& wetBulb() const { return wet_bulb_; }     // [K]
    const std::vector<double>& relativeHumidity() const { return rh_; }  // [-]
    /// Field 9 as written in the file (fraction), for comparison only (see header comment).
    const std::vector<double>& fileRelativeHumidity() const { return file_rh_; }  // [-]
    const std::vector<double>& pressure() const { return pressure_; }             // [Pa]
    const std::vector<double>& humidityRatio() const { return humidity_ratio_; }  // [kg/kg]
    const std::vector<double>& windSpeed() const { return wind_speed_; }          // [m/s]

private:
    friend Weather parseEpw(std::string_view text, std::string name);
    Weather() = default;

    std::string name_;
    Location location_;
    DesignConditions design_;
    std::size_t filled_ = 0;
    std::vector<double> dry_bulb_, dew_point_, wet_bulb_, rh_, file_rh_, pressure_, humidity_ratio_,
        wind_speed_;
};

/// Reads an EPW file. Throws InputError if it cannot be read or breaks the rules above; the
/// message starts with the path as given, then the line and field where that applies.
Weather readEpw(const std::filesystem::path& path);

/// readEpw, shared: the parsed file is kept (the last 8 files, by the path as given) and handed
/// out again while the file has the same size and modification time. A sweep validates every
/// member before it runs and each member's run reads the scenario again; reading and parsing a
/// year (1.6 MB, a wet bulb solved per hour) took ~20 ms each time, 84 % of validating a
/// 200-member ensemble. Thread-safe; errors are readEpw's, and a failed read is not kept.
std::shared_ptr<const Weather> readEpwShared(const std::filesystem::path& path);

/// Parses EPW text already in memory; `name` stands for the file in messages.
Weather parseEpw(std::string_view text, std::string name);

}  // namespace dctwin::weather
