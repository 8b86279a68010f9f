#pragma once
// Monthly water use for the Water tab (DESIGN.md §5.4): calendar-month totals from the report's
// water channels. This is bookkeeping on the time axis, not physics: the twin computes the
// water; the GUI only bins it by month, using the study's wall-clock start
// (ResultSet::start_iso8601) to place month boundaries (leap years included).
#include <QString>
#include <QStringList>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/results.h"

namespace dctwin::gui {

struct CivilTime {
    int year = 2001;              // a non-leap year stands in when the report has no start date
    int month = 1;                // [1..12]
    int day = 1;                  // [1..31]
    double seconds_of_day = 0.0;  // [s]
};

/// "YYYY-MM-DD", "YYYY-MM-DDThh:mm[:ss]" (a trailing 'Z' is accepted); nullopt if malformed.
std::optional<CivilTime> parseIso8601(const std::string& text);

struct MonthTotal {
    int year = 0;
    int month = 0;       // [1..12]
    double value = 0.0;  // [m3] water used in the part of the month the study covers
    QString label(bool with_year) const;  // "Jan" or "Jan 2026"
};

/// Month totals from a cumulative series (m3 since study start), linearly interpolated at the
/// month boundaries. Months with no overlap with the time axis are left out.
std::vector<MonthTotal> monthlyFromCumulative(std::span<const double> time_s,
                                              std::span<const double> total,
                                              const CivilTime& start);
/// Month totals from a rate (m3/s), integrated with the trapezoidal rule between samples and
/// split exactly at month boundaries.
std::vector<MonthTotal> monthlyFromRate(std::span<const double> time_s,
                                        std::span<const double> rate, const CivilTime& start);

struct MonthlyWater {
    std::vector<MonthTotal> months;
    QString source;         // which channel the totals came from, for the chart's caption
    bool has_year = false;  // false when the report had no start date
};

/// The Water tab's bars: from water/water_total when present (the model's own integral), else
/// by integrating water/water_rate. Empty when the report has neither. Channels in units other
/// than m3 / m3/s are refused with an Error naming the channel, since the bars are labelled m3.
MonthlyWater monthlyWaterUse(const ResultSet& results);

/// Bar-chart categories for consecutive months: the month number ("7") while the study has at
/// most twelve (the WUE and PUE charts get a third of a 1280-pixel window, where "Jan 2026" is
/// cut to "Ja…"); beyond twelve, month and year ("Jan 2027"), since categories must be unique
/// (Qt merges equal ones); with no start date the year is counted from the first ("Jan y2").
QStringList monthCategories(const std::vector<MonthTotal>& months, bool has_year);
/// The month axis's title for monthCategories: "month of 2026" or "month, 2026–2027" for
/// numbered months with a start date, else "month".
QString monthAxisTitle(const std::vector<MonthTotal>& months, bool has_year);

/// ∫ y dt over the whole time axis (trapezoidal), in the channel's unit × s.
double integrate(std::span<const double> time_s, std::span<const double> y);

}  // namespace dctwin::gui
