#include "power/trace.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "core/errors.h"
#include "core/json.h"

namespace dctwin::power {
namespace {

std::vector<std::string> readLines(const std::filesystem::path& file) {
    // Non-throwing filesystem queries: a path that is too long or crosses a non-directory is
    // the user's to fix, not a crash of the run.
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) {
        throw InputError(
            fmt::format("{}: is a directory, not a trace file", quoteValue(file.string())));
    }
    errno = 0;
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw InputError(fmt::format("{}: cannot open trace file: {}", quoteValue(file.string()),
                                     std::strerror(errno != 0 ? errno : ENOENT)));
    }
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
    }
    if (in.bad()) throw InputError(fmt::format("{}: read error", file.string()));
    if (!lines.empty() && lines[0].rfind("\xEF\xBB\xBF", 0) == 0) lines[0].erase(0, 3);
    return lines;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(c);
        }
    }
    out.push_back(cur);
    return out;
}

bool parseNumber(const std::string& s, double& out) {
    if (s.empty()) return false;
    const char* b = s.c_str();
    char* e = nullptr;
    errno = 0;
    out = std::strtod(b, &e);
    while (*e == ' ') ++e;
    return e != b && *e == '\0' && errno == 0 && std::isfinite(out);
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
long daysFromCivil(long y, unsigned m, unsigned d) {
    y -= m <= 2;
    const long era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<long>(doe) - 719468;
}

/// "YYYY-MM-DD HH:MM:SS[.fff]" → Unix seconds; false if malformed.
bool parseTimestamp(const std::string& s, double& out) {
    int Y, M, D, h, m;
    double sec;
    char tail;
    if (std::sscanf(s.c_str(), "%4d-%2d-%2d %2d:%2d:%lf%c", &Y, &M, &D, &h, &m, &sec, &tail) != 6) {
        return false;
    }
    if (M < 1 || M > 12 || D < 1 || D > 31 || h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 ||
        sec >= 61) {
        return false;
    }
    out = daysFromCivil(Y, static_cast<unsigned>(M), static_cast<unsigned>(D)) * 86400.0 +
          h * 3600.0 + m * 60.0 + sec;
    return true;
}

/// Nominal step, gaps and the max-gap check, on samples in time order with their file lines.
void finish(TraceSeries& ts, const std::vector<std::size_t>& lines, double max_gap) {
    if (ts.time.size() < 2) {
        throw InputError(
            fmt::format("{}: a trace needs at least 2 samples, found {}", ts.file, ts.time.size()));
    }
    std::map<long long, std::size_t> hist;  // spacing in ms → count
    for (std::size_t i = 1; i < ts.time.size(); ++i) {
        ++hist[std::llround((ts.time[i] - ts.time[i - 1]) * 1e3)];
    }
    ts.nominal_step = std::max_element(hist.begin(), hist.end(),
                                       [](auto& a, auto& b) { return a.second < b.second; })
                          ->first /
                      1e3;
    for (std::size_t i = 1; i < ts.time.size(); ++i) {
        const double dt = ts.time[i] - ts.time[i - 1];
        if (dt <= ts.nominal_step * 1.5) continue;
        ts.gaps.push_back({lines[i], ts.time[i - 1], ts.time[i]});
        if (dt > max_gap) {
            throw InputError(fmt::format(
                "{}:{}: gap of {:.4g} h between lines {} and {} is longer than the maximum "
                "interpolated gap of {:.4g} h (raise max_gap_h to accept it)",
                ts.file, lines[i], dt / 3600.0, lines[i - 1], lines[i], max_gap / 3600.0));
        }
    }
}

}  // namespace

double TraceSeries::at(double t) const {
    if (time.empty()) return 0.0;
    if (t <= time.front()) return value.front();
    if (t >= time.back()) return value.back();
    const auto it = std::upper_bound(time.begin(), time.end(), t);
    const std::size_t i = static_cast<std::size_t>(it - time.begin());
    const double w = (t - time[i - 1]) / (time[i] - time[i - 1]);
    return value[i - 1] + w * (value[i] - value[i - 1]);
}

double TraceSeries::integral(double t0, double t1) const {
    if (time.empty() || t1 <= t0) return 0.0;
    double sum = 0.0;
    // Flat extensions.
    if (t0 < time.front()) {
        const double e = std::min(t1, time.front());
        sum += (e - t0) * value.front();
        t0 = e;
    }
    if (t1 > time.back()) {
        const double b = std::max(t0, time.back());
        sum += (t1 - b) * value.back();
        t1 = b;
    }
    if (t1 <= t0) return sum;
    auto i = static_cast<std::size_t>(std::upper_bound(time.begin(), time.end(), t0) -
                                      time.begin());  // first sample after t0
    double a = t0, va = at(t0);
    while (i < time.size() && time[i] < t1) {
        sum += 0.5 * (va + value[i]) * (time[i] - a);
        a = time[i];
        va = value[i];
        ++i;
    }
    sum += 0.5 * (va + at(t1)) * (t1 - a);
    return sum;
}

std::size_t TraceSeries::missingSamples() const {
    std::size_t n = 0;
    for (const auto& g : gaps) {
        n += static_cast<std::size_t>(std::llround((g.to - g.from) / nominal_step)) - 1;
    }
    return n;
}

TraceSeries readCornellTrace(const std::filesystem::path& file, const TraceOptions& options) {
    static const std::vector<std::string> kColumns{
        "name",    "timestamp", "powerave", "powermin", "powermax", "tempave", "tempmin",
        "tempmax", "utilave",   "utilmin",  "utilmax",  "gmemave",  "gmemmin", "gmemmax"};
    const std::string fname = file.string();
    const auto lines = readLines(file);
    if (lines.empty()) throw InputError(fmt::format("{}: trace file is empty", fname));
    const auto header = split(lines[0], '\t');
    if (header != kColumns) {
        throw InputError(
            fmt::format("{}:1: not a Cornell GPU telemetry header; expected the "
                        "14 tab-separated columns {}",
                        fname, fmt::join(kColumns, ", ")));
    }
    const std::string column = options.column.empty() ? "utilave" : options.column;
    const auto col = std::find(kColumns.begin(), kColumns.end(), column);
    if (col == kColumns.end() || col - kColumns.begin() < 2) {
        throw InputError(fmt::format("{}: unknown trace column '{}'; valid choices: {}", fname,
                                     column,
                                     fmt::join(kColumns.begin() + 2, kColumns.end(), ", ")));
    }
    const auto ci = static_cast<std::size_t>(col - kColumns.begin());

    std::vector<double> t_rev, v_rev;
    std::vector<std::size_t> line_rev;
    std::size_t i = 1;
    for (; i < lines.size() && !lines[i].empty(); ++i) {
        const std::size_t ln = i + 1;
        const auto f = split(lines[i], '\t');
        if (f.size() != kColumns.size()) {
            throw InputError(
                fmt::format("{}:{}: expected 14 tab-separated fields, found {} "
                            "(truncated or malformed row)",
                            fname, ln, f.size()));
        }
        double ts = 0;
        if (!parseTimestamp(f[1], ts)) {
            throw InputError(
                fmt::format("{}:{}: timestamp '{}' is not 'YYYY-MM-DD HH:MM:SS'", fname, ln, f[1]));
        }
        for (std::size_t c = 2; c < f.size(); ++c) {
            double x;
            if (!parseNumber(f[c], x)) {
                throw InputError(fmt::format("{}:{}: field '{}' is '{}', not a number", fname, ln,
                                             kColumns[c], f[c]));
            }
            if (c == ci) v_rev.push_back(x);
        }
        if (!t_rev.empty() && !(ts < t_rev.back())) {
            throw InputError(
                fmt::format("{}:{}: timestamp {} is not older than the row above "
                            "(rows must run newest first, without duplicates)",
                            fname, ln, f[1]));
        }
        t_rev.push_back(ts);
        line_rev.push_back(ln);
    }
    const std::size_t rows = t_rev.size();
    // Footer: blank lines, "(N rows affected)", "Completion time: ...".
    for (; i < lines.size(); ++i) {
        const std::string& l = lines[i];
        if (l.empty() || l.rfind("Completion time:", 0) == 0) continue;
        unsigned long n = 0;
        if (std::sscanf(l.c_str(), "(%lu rows affected)", &n) == 1) {
            if (n != rows) {
                throw InputError(
                    fmt::format("{}:{}: footer says {} rows, but {} data rows were "
                                "read (truncated file?)",
                                fname, i + 1, n, rows));
            }
            continue;
        }
        throw InputError(fmt::format("{}:{}: unexpected line after the data rows: '{}'", fname,
                                     i + 1, l.substr(0, 60)));
    }
    TraceSeries tsr;
    tsr.file = fname;
    tsr.column = column;
    tsr.start_epoch = rows ? t_rev.back() : 0.0;
    std::vector<std::size_t> lines_fwd;
    for (std::size_t k = rows; k-- > 0;) {
        tsr.time.push_back(t_rev[k] - tsr.start_epoch);
        tsr.value.push_back(v_rev[k]);
        lines_fwd.push_back(line_rev[k]);
    }
    finish(tsr, lines_fwd, options.max_gap);
    return tsr;
}

TraceSeries readCsvTrace(const std::filesystem::path& file, const TraceOptions& options) {
    const std::string fname = file.string();
    const auto lines = readLines(file);
    TraceSeries ts;
    ts.file = fname;
    std::size_t vcol = 1;
    std::vector<std::size_t> line_no;
    bool first = true;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::size_t ln = i + 1;
        if (lines[i].empty()) continue;
        const auto f = split(lines[i], ',');
        double t;
        if (first) {
            first = false;
            double a = 0, b = 0;
            const bool numeric = parseNumber(f[0], a) && f.size() > vcol && parseNumber(f[vcol], b);
            if (!numeric) {
                // A header: pick the value column by name if asked.
                if (!options.column.empty()) {
                    auto it = std::find(f.begin(), f.end(), options.column);
                    if (it == f.end() || it == f.begin()) {
                        throw InputError(fmt::format("{}:1: no value column '{}'; columns: {}",
                                                     fname, options.column, fmt::join(f, ", ")));
                    }
                    vcol = static_cast<std::size_t>(it - f.begin());
                }
                ts.column = f.size() > vcol ? f[vcol] : "";
                continue;
            }
        }
        if (f.size() <= vcol) {
            throw InputError(
                fmt::format("{}:{}: expected at least {} comma-separated fields "
                            "(time,value), found {}",
                            fname, ln, vcol + 1, f.size()));
        }
        double v;
        if (!parseNumber(f[0], t)) {
            throw InputError(fmt::format("{}:{}: time '{}' is not a number", fname, ln, f[0]));
        }
        if (!parseNumber(f[vcol], v)) {
            throw InputError(fmt::format("{}:{}: value '{}' is not a number", fname, ln, f[vcol]));
        }
        t *= options.time_unit;
        if (!ts.time.empty() && !(t > ts.time.back())) {
            throw InputError(fmt::format("{}:{}: time {} does not increase", fname, ln, f[0]));
        }
        ts.time.push_back(t);
        ts.value.push_back(v);
        line_no.push_back(ln);
    }
    if (!ts.time.empty()) {
        const double t0 = ts.time.front();
        for (double& t : ts.time) t -= t0;
    }
    finish(ts, line_no, options.max_gap);
    return ts;
}

}  // namespace dctwin::power
