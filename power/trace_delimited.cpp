// Generic delimited text (power/trace.h): a header, a time column chosen by name, value
// columns with units, optionally long format with a group column.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "power/trace_parse.h"

namespace dctwin::power::trace_detail {
namespace {

/// The delimiter the header uses most: tab, semicolon or comma (`, ` is a comma; blanks
/// around fields are trimmed).
char detectDelimiter(const std::string& header) {
    const auto count = [&](char c) { return std::count(header.begin(), header.end(), c); };
    char best = ',';
    long n = 0;
    for (char c : {'\t', ';', ','}) {
        if (count(c) > n) {
            n = count(c);
            best = c;
        }
    }
    return best;
}

bool isTimeName(const std::string& name) {
    const std::string n = lower(name);
    for (const char* k : {"time", "timestamp", "datetime", "date", "t", "ts", "time_s", "time_ms",
                          "elapsed", "elapsed_s", "seconds"}) {
        if (n == k) return true;
    }
    return false;
}

bool isGroupName(const std::string& name) {
    const std::string n = lower(name);
    for (const char* k : {"device", "gpu", "gpu_id", "gpu_index", "index", "node", "pod", "host",
                          "hostname", "uuid", "instance", "rack", "pci.bus_id", "entity"}) {
        if (n == k) return true;
    }
    return false;
}

std::string describeDelimiter(char d) {
    return d == '\t' ? "tab" : d == ';' ? "semicolon" : "comma";
}

}  // namespace

TraceData readDelimited(const std::string& file, const Lines& lines, const TraceReadOptions& o) {
    TraceData data;
    data.file = file;
    data.format = "delimited";
    std::size_t h = 0;
    while (h < lines.text.size() &&
           (trim(lines.text[h]).empty() || trim(lines.text[h]).rfind('#', 0) == 0)) {
        ++h;
    }
    if (h == lines.text.size()) throw InputError(fmt::format("{}: trace file is empty", file));
    const char delim = detectDelimiter(lines.text[h]);
    const auto raw_header = split(lines.text[h], delim);
    if (raw_header.size() < 2) {
        fail(file, h + 1,
             "expected a header of two or more columns separated by commas, semicolons or tabs "
             "(a time column and value columns)");
    }
    std::vector<std::string> names, units;
    bool has_header = false;
    for (const auto& f : raw_header) {
        double x;
        std::string u;
        if (!parseValueWithUnit(f, x, u) && !looksLikeDateTime(trim(f)) && !isMissing(f)) {
            has_header = true;
        }
    }
    // A first field that is empty (",cpu_load": an unnamed index column) is still a header.
    if (trim(raw_header[0]).empty()) has_header = true;
    for (std::size_t c = 0; c < raw_header.size(); ++c) {
        std::string n, u;
        if (has_header) {
            splitHeaderUnit(raw_header[c], n, u);
        } else {
            n = fmt::format("column{}", c + 1);
        }
        names.push_back(n);
        units.push_back(u);
    }
    const std::size_t first_data = has_header ? h + 1 : h;
    auto byName = [&](const std::string& want, const char* what) -> std::size_t {
        std::string n, u;
        splitHeaderUnit(want, n, u);
        for (std::size_t c = 0; c < names.size(); ++c) {
            if (lower(names[c]) == lower(n)) return c;
        }
        fail(file, h + 1,
             fmt::format("no {} column '{}'; columns ({}-separated): {}", what, want,
                         describeDelimiter(delim), fmt::join(names, ", ")));
    };
    std::size_t tcol = 0;
    if (!o.time_column.empty()) {
        tcol = byName(o.time_column, "time");
    } else {
        for (std::size_t c = 0; c < names.size(); ++c) {
            if (isTimeName(names[c])) {
                tcol = c;
                break;
            }
        }
    }
    data.time_column = names[tcol].empty() ? "column 1" : names[tcol];
    double time_unit = o.time_unit;
    if (!units[tcol].empty()) {
        Unit u;
        if (!lookupUnit(units[tcol], u) || u.canonical != "s") {
            fail(file, h + 1,
                 fmt::format("field '{}': time unit '{}' is not one of ms, s, min, h", names[tcol],
                             units[tcol]));
        }
        time_unit = u.factor;
    }

    // Data rows, split once.
    struct Raw {
        std::vector<std::string> f;
        std::size_t index;
    };
    std::vector<Raw> raw;
    for (std::size_t i = first_data; i < lines.text.size(); ++i) {
        const std::string t = trim(lines.text[i]);
        if (t.empty() || t[0] == '#') continue;
        auto f = split(lines.text[i], delim);
        for (auto& x : f) x = trim(x);
        if (f.size() != names.size()) {
            if (isLastDataLine(lines, i)) {
                data.warnings.push_back(fmt::format(
                    "line {} dropped (truncated last line?): {} fields, the header has {}", i + 1,
                    f.size(), names.size()));
                continue;
            }
            fail(file, i + 1,
                 fmt::format("expected {} {}-separated fields ({}), found {}", names.size(),
                             describeDelimiter(delim), fmt::join(names, ", "), f.size()));
        }
        raw.push_back({std::move(f), i});
    }
    if (raw.empty()) throw InputError(fmt::format("{}: no data rows below the header", file));
    const bool datetimes = looksLikeDateTime(raw.front().f[tcol]);
    data.absolute_time = datetimes;
    if (!datetimes && units[tcol].empty() && o.time_unit == 1.0) {
        data.warnings.push_back(fmt::format(
            "numeric times in '{}' carry no unit and are read as seconds (state \"time_unit\", "
            "or write it in the header: '{} [ms]')",
            data.time_column, data.time_column));
    }

    // Group column: given, or detected when times repeat and a device-like column exists.
    std::ptrdiff_t gcol = -1;
    if (!o.group_column.empty()) {
        gcol = static_cast<std::ptrdiff_t>(byName(o.group_column, "group"));
    } else if (raw.size() > 1 && raw[0].f[tcol] == raw[1].f[tcol]) {
        for (std::size_t c = 0; c < names.size(); ++c) {
            if (c != tcol && isGroupName(names[c])) {
                gcol = static_cast<std::ptrdiff_t>(c);
                break;
            }
        }
    }

    // Value columns: numeric in the first row (or N/A), with a known unit.
    struct Col {
        std::size_t field;
        Unit unit;
    };
    std::vector<Col> cols;
    for (std::size_t c = 0; c < names.size(); ++c) {
        if (c == tcol || static_cast<std::ptrdiff_t>(c) == gcol) continue;
        double x;
        std::string u;
        const std::string& v0 = raw.front().f[c];
        if (!isMissing(v0) && !parseValueWithUnit(v0, x, u)) continue;  // a text column
        Unit unit;
        if (!lookupUnit(units[c], unit)) {
            fail(file, h + 1,
                 fmt::format("field '{}': unknown unit '{}' in the header; known units: {}",
                             names[c], units[c], knownUnits()));
        }
        cols.push_back({c, unit});
        data.columns.push_back({names[c], unit.canonical, units[c]});
    }
    if (cols.empty()) {
        fail(file, first_data + 1,
             fmt::format("no numeric value column besides the time column '{}'; columns: {}",
                         data.time_column, fmt::join(names, ", ")));
    }

    TraceBuilder b(data);
    for (std::size_t r = 0; r < raw.size(); ++r) {
        const auto& f = raw[r].f;
        const std::size_t ln = raw[r].index + 1;
        try {
            double t;
            if (datetimes) {
                if (!parseDateTime(f[tcol], o.utc_offset, t)) {
                    fail(file, ln,
                         fmt::format("field '{}': '{}' is not a datetime (ISO 8601 "
                                     "YYYY-MM-DDTHH:MM:SS[.fff][Z|±hh:mm] or YYYY/MM/DD "
                                     "HH:MM:SS.fff, like the first row)",
                                     data.time_column, f[tcol]));
                }
            } else {
                if (!parseNumber(f[tcol], t)) {
                    fail(file, ln,
                         fmt::format("field '{}': time '{}' is not a number", data.time_column,
                                     f[tcol]));
                }
                t *= time_unit;
            }
            std::vector<double> values;
            for (const Col& c : cols) {
                const std::string& v = f[c.field];
                if (isMissing(v)) {
                    values.push_back(NAN);
                    continue;
                }
                double x;
                std::string unit;
                if (!parseValueWithUnit(v, x, unit)) {
                    fail(file, ln,
                         fmt::format("field '{}' is '{}', not a number", names[c.field], v));
                }
                Unit u = c.unit;
                if (!unit.empty()) {
                    Unit vu;
                    if (!lookupUnit(unit, vu)) {
                        fail(file, ln,
                             fmt::format("field '{}': unknown unit '{}' in '{}'; known units: {}",
                                         names[c.field], unit, v, knownUnits()));
                    }
                    if (!units[c.field].empty() && vu.canonical != c.unit.canonical) {
                        fail(file, ln,
                             fmt::format("field '{}': unit '{}' does not match the header's "
                                         "[{}]",
                                         names[c.field], unit, units[c.field]));
                    }
                    if (units[c.field].empty() && r > 0 &&
                        !data.columns[&c - cols.data()].unit.empty() &&
                        vu.canonical != data.columns[&c - cols.data()].unit) {
                        fail(file, ln,
                             fmt::format("field '{}': unit '{}' differs from the first row's",
                                         names[c.field], unit));
                    }
                    u = vu;
                    if (data.columns[&c - cols.data()].unit.empty()) {
                        data.columns[&c - cols.data()].unit = vu.canonical;
                        data.columns[&c - cols.data()].source_unit = unit;
                    }
                }
                values.push_back(x * u.factor);
            }
            const std::string device = gcol >= 0 ? f[static_cast<std::size_t>(gcol)] : "all";
            try {
                b.add(device, t, std::move(values), ln, f[tcol]);
            } catch (const InputError& e) {
                if (gcol < 0) {
                    throw InputError(fmt::format(
                        "{} (several rows per time are long format: name the device column "
                        "with \"group_column\")",
                        e.what()));
                }
                throw;
            }
        } catch (const InputError& e) {
            if (!isLastDataLine(lines, raw[r].index)) throw;
            data.warnings.push_back(
                fmt::format("line {} dropped (truncated last line?): {}", ln, e.what()));
        }
    }
    b.finish();
    return data;
}

}  // namespace dctwin::power::trace_detail
