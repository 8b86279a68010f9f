#include "gui/water_aggregation.h"

#include <fmt/format.h>

#include <QLocale>
#include <algorithm>
#include <cstdio>

#include "core/errors.h"
#include "core/units.h"

namespace dctwin::gui {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
long daysFromCivil(int y, int m, int d) {
    y -= m <= 2;
    const long era = (y >= 0 ? y : y - 399) / 400;
    const long yoe = y - era * 400;
    const long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

bool isLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int daysInMonth(int y, int m) {
    static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && isLeap(y) ? 29 : kDays[m - 1];
}

// A calendar month as a span of seconds since the study start.
struct MonthSpan {
    int year, month;
    double begin, end;  // [s]
};

// The months that overlap [t0, t1] (seconds since `start`), in order.
std::vector<MonthSpan> monthsCovering(const CivilTime& start, double t0, double t1) {
    const double start_abs =
        daysFromCivil(start.year, start.month, start.day) * units::day + start.seconds_of_day;
    std::vector<MonthSpan> out;
    int y = start.year, m = start.month;
    // Walk back if the axis starts before the study start (negative times are legal samples).
    double begin = daysFromCivil(y, m, 1) * units::day - start_abs;
    while (begin > t0) {
        if (--m == 0) m = 12, --y;
        begin = daysFromCivil(y, m, 1) * units::day - start_abs;
    }
    while (begin < t1) {
        const double end = begin + daysInMonth(y, m) * units::day;
        if (end > t0) out.push_back({y, m, begin, end});
        begin = end;
        if (++m == 13) m = 1, ++y;
    }
    return out;
}

void checkAxis(std::span<const double> t, std::span<const double> v, const char* what) {
    if (t.size() != v.size()) {
        throw ModelError(
            fmt::format("{}: {} samples on a time axis of {} samples", what, v.size(), t.size()));
    }
}

double interpolate(std::span<const double> t, std::span<const double> v, double x) {
    if (x <= t.front()) return v.front();
    if (x >= t.back()) return v.back();
    const auto it = std::upper_bound(t.begin(), t.end(), x);
    const std::size_t i = static_cast<std::size_t>(it - t.begin());
    const double w = (x - t[i - 1]) / (t[i] - t[i - 1]);
    return v[i - 1] + w * (v[i] - v[i - 1]);
}

}  // namespace

std::optional<CivilTime> parseIso8601(const std::string& text) {
    CivilTime c;
    int hh = 0, mm = 0;
    double ss = 0.0;
    char tail[8] = {0};
    const int n = std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%lf%7s", &c.year, &c.month, &c.day,
                              &hh, &mm, &ss, tail);
    if (n < 3 || c.month < 1 || c.month > 12 || c.day < 1 || c.day > daysInMonth(c.year, c.month)) {
        return std::nullopt;
    }
    if (n == 3 && text.size() != 10) return std::nullopt;
    if (n == 4) return std::nullopt;  // an hour without minutes is not ISO 8601
    if (n == 7 && std::string(tail) != "Z") return std::nullopt;
    if (hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0.0 || ss >= 61.0) return std::nullopt;
    c.seconds_of_day = hh * units::hour + mm * units::minute + ss;
    return c;
}

QString MonthTotal::label(bool with_year) const {
    const QString name = QLocale::c().monthName(month, QLocale::ShortFormat);
    return with_year ? QStringLiteral("%1 %2").arg(name).arg(year) : name;
}

QStringList monthCategories(const std::vector<MonthTotal>& months, bool has_year) {
    QStringList out;
    if (months.size() <= 12) {
        for (const MonthTotal& m : months) out << QString::number(m.month);
        return out;
    }
    const int first = months.front().year;
    for (const MonthTotal& m : months) {
        out << (has_year ? m.label(true)
                         : QStringLiteral("%1 y%2").arg(m.label(false)).arg(m.year - first + 1));
    }
    return out;
}

QString monthAxisTitle(const std::vector<MonthTotal>& months, bool has_year) {
    if (!has_year || months.empty() || months.size() > 12) return QObject::tr("month");
    const int a = months.front().year, b = months.back().year;
    return a == b ? QObject::tr("month of %1").arg(a) : QObject::tr("month, %1–%2").arg(a).arg(b);
}

std::vector<MonthTotal> monthlyFromCumulative(std::span<const double> time_s,
                                              std::span<const double> total,
                                              const CivilTime& start) {
    checkAxis(time_s, total, "water/water_total");
    std::vector<MonthTotal> out;
    if (time_s.size() < 2) return out;
    const double t0 = time_s.front(), t1 = time_s.back();
    for (const MonthSpan& ms : monthsCovering(start, t0, t1)) {
        const double a = std::max(ms.begin, t0), b = std::min(ms.end, t1);
        if (!(a < b)) continue;
        out.push_back(
            {ms.year, ms.month, interpolate(time_s, total, b) - interpolate(time_s, total, a)});
    }
    return out;
}

std::vector<MonthTotal> monthlyFromRate(std::span<const double> time_s,
                                        std::span<const double> rate, const CivilTime& start) {
    checkAxis(time_s, rate, "water/water_rate");
    std::vector<MonthTotal> out;
    if (time_s.size() < 2) return out;
    const std::vector<MonthSpan> months = monthsCovering(start, time_s.front(), time_s.back());
    for (const MonthSpan& ms : months) out.push_back({ms.year, ms.month, 0.0});
    // The rate is linear between samples, so each piece cut at a month boundary integrates
    // exactly with the trapezoidal rule on its interpolated end values.
    std::size_t k = 0;
    for (std::size_t i = 0; i + 1 < time_s.size(); ++i) {
        const double ta = time_s[i], tb = time_s[i + 1];
        if (!(tb > ta)) continue;
        const auto r = [&](double t) {
            return rate[i] + (rate[i + 1] - rate[i]) * (t - ta) / (tb - ta);
        };
        while (k < months.size() && months[k].end <= ta) ++k;
        for (std::size_t j = k; j < months.size() && months[j].begin < tb; ++j) {
            const double u = std::max(ta, months[j].begin), v = std::min(tb, months[j].end);
            if (u < v) out[j].value += 0.5 * (v - u) * (r(u) + r(v));
        }
    }
    return out;
}

MonthlyWater monthlyWaterUse(const ResultSet& results) {
    MonthlyWater w;
    const std::optional<CivilTime> start = parseIso8601(results.start_iso8601);
    w.has_year = start.has_value();
    const CivilTime origin = start.value_or(CivilTime{});
    if (const Channel* total = results.find("water", "water_total")) {
        if (total->unit != "m3") {
            throw ModelError(
                fmt::format("water/water_total has unit '{}'; expected m3", total->unit));
        }
        w.months = monthlyFromCumulative(results.time, total->values, origin);
        w.source = QStringLiteral("water/water_total");
    } else if (const Channel* rate = results.find("water", "water_rate")) {
        if (rate->unit != "m3/s") {
            throw ModelError(
                fmt::format("water/water_rate has unit '{}'; expected m3/s", rate->unit));
        }
        w.months = monthlyFromRate(results.time, rate->values, origin);
        w.source = QStringLiteral("water/water_rate (integrated)");
    }
    return w;
}

double integrate(std::span<const double> time_s, std::span<const double> y) {
    double s = 0.0;
    const std::size_t n = std::min(time_s.size(), y.size());
    for (std::size_t i = 0; i + 1 < n; ++i) {
        s += 0.5 * (time_s[i + 1] - time_s[i]) * (y[i] + y[i + 1]);
    }
    return s;
}

}  // namespace dctwin::gui
