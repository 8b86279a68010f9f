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
#include "power/trace_parse.h"

namespace dctwin::power {
namespace {

using namespace trace_detail;

/// "YYYY-MM-DD HH:MM:SS[.fff]" → Unix seconds; false if malformed (the Cornell stamps).
bool parseTimestamp(const std::string& s, double& out) {
    if (s.size() < 19 || s[4] != '-' || s[10] != ' ') return false;
    return parseDateTime(s, 0.0, out);
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
        ts.gaps.push_back({lines[i], ts.time[i - 1], ts.time[i], lines[i - 1], 0});
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

namespace {

const std::vector<std::string>& cornellColumns() {
    static const std::vector<std::string> kColumns{
        "name",    "timestamp", "powerave", "powermin", "powermax", "tempave", "tempmin",
        "tempmax", "utilave",   "utilmin",  "utilmax",  "gmemave",  "gmemmin", "gmemmax"};
    return kColumns;
}

}  // namespace

TraceData trace_detail::readCornell(const std::string& fname, const Lines& file_lines) {
    const auto& kColumns = cornellColumns();
    const auto& lines = file_lines.text;
    if (lines.empty()) throw InputError(fmt::format("{}: trace file is empty", fname));
    const auto header = split(lines[0], '\t');
    if (header != kColumns) {
        throw InputError(
            fmt::format("{}:1: not a Cornell GPU telemetry header; expected the "
                        "14 tab-separated columns {}",
                        fname, fmt::join(kColumns, ", ")));
    }
    // Units: SOURCES.md — power W, temperature C, utilization and GPU memory %.
    TraceData data;
    data.file = fname;
    data.format = "cornell";
    data.time_column = "timestamp";
    data.absolute_time = true;
    for (std::size_t c = 2; c < kColumns.size(); ++c) {
        const char* unit = c <= 4 ? "W" : c <= 7 ? "C" : "%";
        data.columns.push_back({kColumns[c], unit, unit});
    }
    struct Row {
        double t;
        std::vector<double> v;
        std::size_t line;
    };
    std::vector<Row> rows;
    std::string name;
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
        Row r{ts, {}, ln};
        for (std::size_t c = 2; c < f.size(); ++c) {
            double x;
            if (!parseNumber(f[c], x)) {
                throw InputError(fmt::format("{}:{}: field '{}' is '{}', not a number", fname, ln,
                                             kColumns[c], f[c]));
            }
            r.v.push_back(x);
        }
        if (!rows.empty() && !(ts < rows.back().t)) {
            throw InputError(
                fmt::format("{}:{}: timestamp {} is not older than the row above "
                            "(rows must run newest first, without duplicates)",
                            fname, ln, f[1]));
        }
        if (name.empty()) name = f[0];
        rows.push_back(std::move(r));
    }
    // Footer: blank lines, "(N rows affected)", "Completion time: ...".
    for (; i < lines.size(); ++i) {
        const std::string& l = lines[i];
        if (l.empty() || l.rfind("Completion time:", 0) == 0) continue;
        unsigned long n = 0;
        if (std::sscanf(l.c_str(), "(%lu rows affected)", &n) == 1) {
            if (n != rows.size()) {
                throw InputError(
                    fmt::format("{}:{}: footer says {} rows, but {} data rows were "
                                "read (truncated file?)",
                                fname, i + 1, n, rows.size()));
            }
            continue;
        }
        throw InputError(fmt::format("{}:{}: unexpected line after the data rows: '{}'", fname,
                                     i + 1, l.substr(0, 60)));
    }
    TraceBuilder b(data);
    for (std::size_t k = rows.size(); k-- > 0;) {
        b.add(name, rows[k].t, std::move(rows[k].v), rows[k].line, "");
    }
    b.finish();
    return data;
}

TraceSeries readCornellTrace(const std::filesystem::path& file, const TraceOptions& options) {
    const auto& kColumns = cornellColumns();
    const std::string fname = file.string();
    const TraceData data = readCornell(fname, readLines(file));
    const std::string column = options.column.empty() ? "utilave" : options.column;
    const auto col = std::find(kColumns.begin(), kColumns.end(), column);
    if (col == kColumns.end() || col - kColumns.begin() < 2) {
        throw InputError(fmt::format("{}: unknown trace column '{}'; valid choices: {}", fname,
                                     column,
                                     fmt::join(kColumns.begin() + 2, kColumns.end(), ", ")));
    }
    const auto ci = static_cast<std::size_t>(col - kColumns.begin()) - 2;
    const TraceDevice& d = data.devices.front();
    TraceSeries tsr;
    tsr.file = fname;
    tsr.column = column;
    tsr.start_epoch = data.start_epoch;
    tsr.time = d.time;
    tsr.value = d.values[ci];
    finish(tsr, d.lines, options.max_gap);
    return tsr;
}

TraceSeries readCsvTrace(const std::filesystem::path& file, const TraceOptions& options) {
    const std::string fname = file.string();
    const auto lines = readLines(file).text;
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

// ---------------------------------------------------------------------------------------------
// Multi-device telemetry

std::size_t TraceData::columnIndex(const std::string& name) const {
    std::string want, unit;
    splitHeaderUnit(name, want, unit);
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (lower(columns[c].name) == lower(want)) return c;
    }
    std::vector<std::string> names;
    for (const auto& c : columns) {
        names.push_back(c.unit.empty() ? c.name : fmt::format("{} [{}]", c.name, c.unit));
    }
    throw InputError(fmt::format("{}: no value column '{}'; valid choices: {}", file, name,
                                 fmt::join(names, ", ")));
}

std::size_t TraceData::columnWithUnit(const std::string& unit) const {
    // A limit is in W too (power.limit, enforced.power.limit): logged before power.draw it was
    // the "first power column", a flat 700 W. Limits come after every other column.
    const auto limit = [](const TraceColumn& c) {
        return lower(c.name).find("limit") != std::string::npos;
    };
    for (const bool limits : {false, true}) {
        for (std::size_t c = 0; c < columns.size(); ++c) {
            if (columns[c].unit == unit && limit(columns[c]) == limits) return c;
        }
    }
    return static_cast<std::size_t>(-1);
}

std::size_t TraceData::samples() const {
    std::size_t n = 0;
    for (const auto& d : devices) n += d.time.size();
    return n;
}

const std::vector<std::string>& traceFormats() {
    static const std::vector<std::string> f{
        "auto", "nvidia_smi", "dcgm_dmon", "dcgm_prometheus", "delimited", "csv", "cornell"};
    return f;
}

std::string detectTraceFormat(const std::vector<std::string>& lines) {
    std::size_t seen = 0;
    for (const std::string& raw : lines) {
        const std::string l = trim(raw);
        if (l.empty()) continue;
        if (++seen > 20) break;
        if (raw.rfind("name\ttimestamp\tpowerave", 0) == 0) return "cornell";
        if (l.rfind("#Entity", 0) == 0 || l.rfind("# Entity", 0) == 0) return "dcgm_dmon";
        if (l.rfind("# HELP DCGM_", 0) == 0 || l.rfind("# TYPE DCGM_", 0) == 0 ||
            l.rfind("DCGM_FI_", 0) == 0) {
            return "dcgm_prometheus";
        }
        if (l[0] == '#') continue;
        // nvidia-smi: its dotted query names in the header, or its stamp opening a row.
        const std::string low = lower(l);
        for (const char* key : {"power.draw", "utilization.gpu", "pci.bus_id", "temperature.gpu",
                                "memory.used", "clocks.sm", "enforced.power.limit"}) {
            if (low.find(key) != std::string::npos) return "nvidia_smi";
        }
        if (l.size() >= 23 && l[4] == '/' && l[7] == '/' && l[10] == ' ' && l[13] == ':' &&
            l.find(',') != std::string::npos) {
            return "nvidia_smi";
        }
        return "delimited";
    }
    return "";
}

namespace {

/// The line (1-based) of an `nvidia-smi dmon` (or pmon) header among the first lines, 0 if
/// none: "# gpu   pwr  gtemp ...", "# Idx     W      C ..." (with -o DT "#Date  Time  gpu ...").
std::size_t nvidiaSmiDmonHeader(const std::vector<std::string>& lines) {
    static const char* kColumns[] = {"pwr", "gtemp", "mtemp", "sm",    "mem",  "enc",
                                     "dec", "mclk",  "pclk",  "pviol", "fb",   "bar1",
                                     "pid", "rxpci", "txpci", "tviol", "sbecc"};
    std::size_t seen = 0;
    for (std::size_t i = 0; i < lines.size() && seen < 20; ++i) {
        const std::string l = trim(lines[i]);
        if (l.empty()) continue;
        ++seen;
        if (l[0] != '#') continue;
        std::istringstream in(l.substr(1));
        std::vector<std::string> tokens;
        for (std::string t; in >> t;) tokens.push_back(t);
        // -o DT / -o T put the date and time first.
        std::size_t k = 0;
        while (k < tokens.size() && (tokens[k] == "Date" || tokens[k] == "Time" ||
                                     tokens[k] == "YYYYMMDD" || tokens[k] == "HH:MM:SS")) {
            ++k;
        }
        if (k + 1 >= tokens.size()) continue;
        if (tokens[k] == "Idx") return i + 1;
        if (tokens[k] == "gpu" && std::any_of(std::begin(kColumns), std::end(kColumns),
                                              [&](const char* c) { return tokens[k + 1] == c; })) {
            return i + 1;
        }
    }
    return 0;
}

}  // namespace

TraceData readTrace(const std::filesystem::path& file, const TraceReadOptions& options) {
    const std::string fname = file.string();
    const Lines lines = readLines(file);
    // nvidia-smi dmon text looked like a delimited file with a broken header, or an nvidia-smi
    // CSV without a timestamp: say what it is and how to log instead.
    if (const std::size_t ln = nvidiaSmiDmonHeader(lines.text); ln > 0) {
        fail(fname, ln,
             fmt::format("'{}' is the header of `nvidia-smi dmon` (or pmon) output, which is not "
                         "a supported trace format; log the GPUs with `nvidia-smi "
                         "--query-gpu=timestamp,index,power.draw --format=csv -lms 100 > "
                         "log.csv` (format nvidia_smi), or with `dcgmi dmon -e 155 -d 100` "
                         "(format dcgm_dmon, \"interval_s\": 0.1)",
                         trim(lines.text[ln - 1])));
    }
    std::string format = options.format.empty() ? "auto" : options.format;
    const auto& valid = traceFormats();
    if (std::find(valid.begin(), valid.end(), format) == valid.end()) {
        throw InputError(fmt::format("{}: unknown trace format '{}'; valid choices: {}", fname,
                                     format, fmt::join(valid, ", ")));
    }
    if (format == "auto") {
        format = detectTraceFormat(lines.text);
        if (format.empty()) throw InputError(fmt::format("{}: trace file is empty", fname));
    }
    if (format == "csv") format = "delimited";
    TraceData d;
    if (format == "nvidia_smi") {
        d = readNvidiaSmi(fname, lines, options);
    } else if (format == "dcgm_dmon") {
        d = readDcgmDmon(fname, lines, options);
    } else if (format == "dcgm_prometheus") {
        d = readDcgmPrometheus(fname, lines, options);
    } else if (format == "cornell") {
        d = readCornell(fname, lines);
    } else {
        d = readDelimited(fname, lines, options);
    }
    return d;
}

namespace {

/// Sampling of the samples `keep` picks out of a device's rows; the nominal step is that of
/// all its rows.
template <class Keep>
TraceSampling sampling(const TraceDevice& device, Keep&& keep) {
    TraceSampling s;
    const auto& t = device.time;
    if (t.size() < 2) return s;
    std::map<long long, std::size_t> hist;  // spacing in ms → count
    for (std::size_t i = 1; i < t.size(); ++i) ++hist[std::llround((t[i] - t[i - 1]) * 1e3)];
    s.nominal_step = std::max_element(hist.begin(), hist.end(),
                                      [](auto& a, auto& b) { return a.second < b.second; })
                         ->first /
                     1e3;
    if (s.nominal_step <= 0) s.nominal_step = (t.back() - t.front()) / (t.size() - 1);
    s.mean_step = (t.back() - t.front()) / static_cast<double>(t.size() - 1);
    double sq = 0;
    std::size_t n = 0;
    std::size_t prev = t.size();  // the last kept sample
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (!keep(i)) continue;
        if (prev == t.size()) {
            prev = i;
            continue;
        }
        // To the microsecond: stamps are differences of Unix times near 1.7e9 s.
        const double dt = std::round((t[i] - t[prev]) * 1e6) / 1e6;
        if (dt > 1.5 * s.nominal_step) {
            s.gaps.push_back({device.lines[i], t[prev], t[i], device.lines[prev], i - prev - 1});
        } else {
            sq += (dt - s.nominal_step) * (dt - s.nominal_step);
            ++n;
        }
        prev = i;
    }
    s.jitter = n ? std::sqrt(sq / static_cast<double>(n)) : 0.0;
    return s;
}

}  // namespace

TraceSampling traceSampling(const TraceDevice& device) {
    return sampling(device, [](std::size_t) { return true; });
}

TraceSampling traceSampling(const TraceDevice& device, std::size_t column) {
    if (column >= device.values.size()) return traceSampling(device);
    const auto& v = device.values[column];
    return sampling(device, [&v](std::size_t i) { return i < v.size() && !std::isnan(v[i]); });
}

namespace {

/// One device's value at time t: linear between its samples, the gap policy inside a gap,
/// flat outside its span. NaN samples (N/A in the file) are skipped.
class DeviceSignal {
public:
    DeviceSignal(const TraceDevice& d, std::size_t column, const AggregateOptions& o,
                 double gap_limit)
        : o_(o), gap_limit_(gap_limit) {
        for (std::size_t i = 0; i < d.time.size(); ++i) {
            const double v = d.values[column][i];
            if (std::isnan(v)) continue;
            t_.push_back(d.time[i]);
            v_.push_back(o.transform ? o.transform(v) : v);
        }
    }
    bool empty() const { return t_.empty(); }
    double front() const { return t_.front(); }
    double back() const { return t_.back(); }
    double at(double t) const {
        // Before a device's first reading or after its last (a GPU that joined the log late
        // or left it early) is a gap like one between readings: filled with the idle value
        // when that is the fill, else held at the nearest reading (nothing to interpolate
        // toward). It was held at the edge whatever the fill said.
        if (t <= t_.front() || t >= t_.back()) {
            const bool before = t <= t_.front();
            if (o_.fill == GapFill::Idle &&
                (before ? t_.front() - t : t - t_.back()) > gap_limit_) {
                return o_.transform ? o_.transform(o_.idle_value) : o_.idle_value;
            }
            return before ? v_.front() : v_.back();
        }
        const auto i =
            static_cast<std::size_t>(std::upper_bound(t_.begin(), t_.end(), t) - t_.begin());
        const double a = t_[i - 1], b = t_[i];
        if (b - a > gap_limit_) {
            if (o_.fill == GapFill::Hold) return v_[i - 1];
            if (o_.fill == GapFill::Idle) {
                return o_.transform ? o_.transform(o_.idle_value) : o_.idle_value;
            }
        }
        return v_[i - 1] + (t - a) / (b - a) * (v_[i] - v_[i - 1]);
    }

private:
    const AggregateOptions& o_;
    double gap_limit_;
    std::vector<double> t_, v_;
};

/// A gap longer than this many nominal steps, and longer than kLongGap, is warned of: with
/// the default max_gap_h of 48 h a clock stepped forward by an hour (or DST spring-forward)
/// was bridged by the gap fill without a word.
constexpr double kLongGapSteps = 10.0;
constexpr double kLongGap = 1.0;  // [s]

std::string duration(double s) {
    if (s >= 2 * 86400) return fmt::format("{:.4g} d", s / 86400);
    if (s >= 2 * 3600) return fmt::format("{:.4g} h", s / 3600);
    return fmt::format("{:.4g} s", s);
}

/// "'0', '3' and '7'"; the first five and a count beyond.
std::string describeIds(const std::vector<std::string>& ids) {
    std::string out;
    const std::size_t shown = std::min<std::size_t>(ids.size(), 5);
    for (std::size_t i = 0; i < shown; ++i) {
        if (i > 0) out += i + 1 == ids.size() ? " and " : ", ";
        out += "'" + ids[i] + "'";
    }
    if (shown < ids.size()) out += fmt::format(" and {} more", ids.size() - shown);
    return out;
}

const char* fillName(GapFill f) {
    return f == GapFill::Hold ? "hold" : f == GapFill::Idle ? "idle" : "interpolate";
}

struct LongGap {
    TraceGap gap;
    std::size_t device = 0;
    double step = 0;  // [s] the device's nominal step
};

/// One warning per long gap (gaps of several devices at the same time are one), the first
/// few by time: where it is (lines, device, trace time and, for datetimes, UTC) and how long.
void warnLongGaps(const TraceData& data, const AggregateOptions& o, std::vector<LongGap> gaps,
                  std::vector<std::string>& warnings) {
    if (gaps.empty()) return;
    std::stable_sort(gaps.begin(), gaps.end(),
                     [](const LongGap& a, const LongGap& b) { return a.gap.from < b.gap.from; });
    struct Group {
        TraceGap gap;
        std::size_t device;
        double step;
        std::size_t devices = 1;
    };
    std::vector<Group> groups;
    for (const LongGap& lg : gaps) {
        const TraceGap& g = lg.gap;
        const double step = lg.step;
        bool merged = false;
        // Groups are in time order: only the last few can start near this gap.
        for (auto it = groups.rbegin(); it != groups.rend(); ++it) {
            const double tol = 2 * std::max(step, it->step);
            if (g.from - it->gap.from > tol) break;
            if (std::abs(it->gap.to - g.to) <= tol) {
                ++it->devices;
                merged = true;
                break;
            }
        }
        if (!merged) groups.push_back({g, lg.device, step, 1});
    }
    constexpr std::size_t kShown = 5;
    for (std::size_t i = 0; i < groups.size() && i < kShown; ++i) {
        const Group& grp = groups[i];
        const TraceGap& g = grp.gap;
        const double len = g.to - g.from;
        std::string who;
        if (data.devices.size() > 1) {
            who = fmt::format(" (device '{}'", data.devices[grp.device].id);
            if (grp.devices > 1)
                who += fmt::format(" and {} more at the same time", grp.devices - 1);
            who += ")";
        }
        const auto at = [](double t) {
            return t < 1e5 ? fmt::format("{:.6g} s", t) : fmt::format("{:.0f} s", t);
        };
        std::string when = fmt::format("trace time {} to {}", at(g.from), at(g.to));
        if (data.absolute_time) {
            when += fmt::format(", {} to {}", trace_detail::isoUtc(data.start_epoch + g.from),
                                trace_detail::isoUtc(data.start_epoch + g.to));
        }
        warnings.push_back(fmt::format(
            "{}:{}: gap of {} between lines {} and {}{}{}, {:.0f}× the {:.4g} s step ({}); it "
            "is bridged by the gap fill ('{}'): a clock that jumped, or a logger that stopped? "
            "Check the log, or set max_gap_h below {:.4g} h to refuse it",
            data.file, g.line, duration(len), g.line_before, g.line, who,
            g.unread > 0 ? fmt::format(", where {} rows read N/A", g.unread) : std::string(),
            len / grp.step, grp.step, when, fillName(o.fill), len / 3600.0));
    }
    if (groups.size() > kShown) {
        warnings.push_back(fmt::format("{}: {} more gaps longer than {:g}× the step", data.file,
                                       groups.size() - kShown, kLongGapSteps));
    }
}

}  // namespace

TraceSeries aggregateTrace(const TraceData& data, const AggregateOptions& o) {
    if (o.column >= data.columns.size()) {
        throw InputError(fmt::format("{}: no value column {}", data.file, o.column));
    }
    TraceSeries out;
    out.file = data.file;
    out.column = data.columns[o.column].name;
    out.start_epoch = data.start_epoch;
    out.warnings = data.warnings;
    // Gaps are judged per device against its own nominal step (the polling of its rows), on
    // the samples that have a reading in the column: a run of N/A readings is a gap like rows
    // that are missing (a GPU that read N/A for two days was bridged without a word). The
    // longest device sets the grid.
    std::size_t longest = 0;
    std::vector<LongGap> long_gaps;
    for (std::size_t k = 0; k < data.devices.size(); ++k) {
        const auto& d = data.devices[k];
        if (d.time.size() > data.devices[longest].time.size()) longest = k;
        const TraceSampling s = traceSampling(d, o.column);
        for (const auto& g : s.gaps) {
            if (g.to - g.from > o.max_gap) {
                throw InputError(fmt::format(
                    "{}:{}: gap of {:.4g} h between lines {} and {} (device '{}'{}) is longer "
                    "than the maximum interpolated gap of {:.4g} h (raise max_gap_h to accept "
                    "it)",
                    data.file, g.line, (g.to - g.from) / 3600.0, g.line_before, g.line, d.id,
                    g.unread > 0 ? fmt::format("; the {} rows between read N/A", g.unread)
                                 : std::string(),
                    o.max_gap / 3600.0));
            }
            if (g.to - g.from > kLongGapSteps * s.nominal_step && g.to - g.from > kLongGap) {
                long_gaps.push_back({g, k, s.nominal_step});
            }
            out.gaps.push_back(g);
        }
    }
    std::sort(out.gaps.begin(), out.gaps.end(),
              [](const TraceGap& a, const TraceGap& b) { return a.from < b.from; });
    warnLongGaps(data, o, long_gaps, out.warnings);
    const TraceSampling ref = traceSampling(data.devices[longest]);
    std::vector<DeviceSignal> signals;
    std::vector<std::string> unread;  // devices without a single reading in the column
    for (const auto& d : data.devices) {
        const double limit = 1.5 * traceSampling(d).nominal_step;
        signals.emplace_back(d, o.column, o, limit > 0 ? limit : INFINITY);
        if (signals.back().empty()) {
            signals.pop_back();
            unread.push_back(d.id);
        }
    }
    if (signals.empty()) {
        throw InputError(
            fmt::format("{}: column '{}' has no values (all N/A)", data.file, out.column));
    }
    out.devices = signals.size();
    // A device whose readings start after the log's first or end before its last leaves a gap
    // at that end, judged as the others: longer than max_gap_h is an error, longer than the
    // device's step is filled (DeviceSignal::at) and said.
    if (signals.size() > 1) {
        double first = INFINITY, last = -INFINITY;
        for (const auto& sig : signals) {
            first = std::min(first, sig.front());
            last = std::max(last, sig.back());
        }
        std::size_t k = 0;
        for (const auto& d : data.devices) {
            if (std::find(unread.begin(), unread.end(), d.id) != unread.end()) continue;
            const DeviceSignal& sig = signals[k++];
            const double limit = 1.5 * traceSampling(d).nominal_step;
            for (const bool head : {true, false}) {
                const double len = head ? sig.front() - first : last - sig.back();
                if (!(len > limit)) continue;
                const std::string what = fmt::format(
                    "{}: device '{}' has no reading in column '{}' for the {} {} of the log",
                    data.file, d.id, out.column, head ? "first" : "last", duration(len));
                if (len > o.max_gap) {
                    throw InputError(fmt::format(
                        "{}, longer than the maximum gap of {:.4g} h (raise max_gap_h to accept "
                        "it)",
                        what, o.max_gap / 3600.0));
                }
                out.warnings.push_back(fmt::format("{}: filled with {} there ('{}')", what,
                                                   o.fill == GapFill::Idle ? "the idle value"
                                                   : head                  ? "its first reading"
                                                                           : "its last reading",
                                                   fillName(o.fill)));
            }
        }
    }
    if (!unread.empty()) {
        // Left out of the sum and the mean alike: counted as 0 W a dead GPU read as a GPU
        // below idle (a sum over 7 of 8 GPUs divided by 8).
        out.warnings.push_back(fmt::format(
            "{} {} {} no reading in column '{}' (every value N/A) and {} left out: the series "
            "covers the other {} of {} devices",
            unread.size() == 1 ? "device" : "devices", describeIds(unread),
            unread.size() == 1 ? "has" : "have", out.column, unread.size() == 1 ? "is" : "are",
            signals.size(), data.devices.size()));
    }
    const bool own_times =
        data.devices.size() == 1 && o.fill == GapFill::Interpolate && o.grid_step <= 0.0;
    if (own_times) {
        // One device, gaps bridged linearly: its samples are the series.
        const TraceDevice& d = data.devices.front();
        for (std::size_t i = 0; i < d.time.size(); ++i) {
            const double v = d.values[o.column][i];
            if (std::isnan(v)) continue;
            out.time.push_back(d.time[i]);
            out.value.push_back(o.transform ? o.transform(v) : v);
        }
        out.nominal_step = ref.nominal_step;
    } else {
        double t0 = INFINITY, t1 = -INFINITY;
        for (const auto& d : data.devices) {
            if (d.time.empty()) continue;
            t0 = std::min(t0, d.time.front());
            t1 = std::max(t1, d.time.back());
        }
        const double step = o.grid_step > 0 ? o.grid_step : ref.nominal_step;
        if (!(step > 0)) {
            throw InputError(
                fmt::format("{}: cannot find a sampling step (fewer than 2 samples)", data.file));
        }
        const double points = std::floor((t1 - t0) / step + 1e-6) + 1;
        // A week at 0.1 s is 6e6 points; far more means stamps that are not what they seem.
        if (points > 5e7) {
            throw InputError(fmt::format(
                "{}: {:.3g} s at a {:.3g} s step would be {:.3g} samples; check the time "
                "column and its unit",
                data.file, t1 - t0, step, points));
        }
        const auto n = static_cast<std::size_t>(points);
        for (std::size_t k = 0; k < n; ++k) {
            const double t = t0 + static_cast<double>(k) * step;
            double sum = 0;
            for (const auto& sig : signals) sum += sig.at(t);
            out.time.push_back(t - t0);
            out.value.push_back(
                o.rule == TraceAggregate::Sum ? sum : sum / static_cast<double>(signals.size()));
        }
        out.nominal_step = step;
        for (auto& g : out.gaps) {
            g.from -= t0;
            g.to -= t0;
        }
    }
    if (out.time.size() < 2) {
        throw InputError(fmt::format("{}: a trace needs at least 2 samples, found {}", data.file,
                                     out.time.size()));
    }
    if (out.time.front() != 0.0) {
        const double s0 = out.time.front();
        for (double& t : out.time) t -= s0;
        for (auto& g : out.gaps) {
            g.from -= s0;
            g.to -= s0;
        }
    }
    return out;
}

}  // namespace dctwin::power
