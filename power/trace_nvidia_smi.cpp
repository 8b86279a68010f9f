// nvidia-smi CSV logs (power/trace.h): `nvidia-smi --query-gpu=timestamp,index,power.draw,...
// --format=csv[,noheader][,nounits] -lms N`.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/errors.h"
#include "power/trace_parse.h"

namespace dctwin::power::trace_detail {
namespace {

/// Text fields nvidia-smi can log that are not measurements.
bool isTextField(const std::string& name) {
    static const char* kText[] = {
        "name",           "gpu_name",      "uuid",         "gpu_uuid",         "serial",
        "driver_version", "vbios_version", "pstate",       "compute_mode",     "pci.bus_id",
        "gpu_bus_id",     "pci.bus",       "display_mode", "persistence_mode", "power.management"};
    const std::string n = lower(name);
    return std::any_of(std::begin(kText), std::end(kText), [&](const char* t) { return n == t; });
}

/// Canonical unit of a field that nvidia-smi logs without one (`nounits`, or a `fields` list
/// without units): nvidia-smi --help-query-gpu gives power.* in W, utilization.* and fan.speed
/// in %, memory.* in MiB, clocks.* in MHz, temperature.* in C. Without this a noheader log
/// listing utilization.gpu before power.draw had no column in W, and its utilization was
/// replayed as watts.
std::string impliedUnit(const std::string& name) {
    const std::string n = lower(name);
    auto starts = [&n](const char* p) { return n.rfind(p, 0) == 0; };
    if (starts("temperature.")) return "C";
    if (starts("fan.speed")) return "%";
    if (starts("power.") || starts("enforced.power.") || starts("module.power.")) return "W";
    if (starts("utilization.")) return "%";
    if (starts("memory.")) return "MiB";
    if (starts("clocks.")) return "MHz";
    return "";
}

/// Rows per polling cycle from the row times: inside a cycle rows are milliseconds apart,
/// between cycles a polling period. The spacings split where the ratio of two neighbours in
/// sorted order is largest (and at least 3); without such a split every row is a cycle.
double cycleThreshold(const std::vector<double>& times) {
    std::vector<double> d;
    for (std::size_t i = 1; i < times.size(); ++i) {
        d.push_back(std::max(times[i] - times[i - 1], 1e-3));
    }
    if (d.empty()) return 0.0;
    std::sort(d.begin(), d.end());
    double best = 1.0, thr = 0.0;
    for (std::size_t j = 0; j + 1 < d.size(); ++j) {
        const double r = d[j + 1] / d[j];
        if (r > best) {
            best = r;
            thr = std::sqrt(d[j] * d[j + 1]);
        }
    }
    return best >= 3.0 ? thr : 0.0;
}

}  // namespace

TraceData readNvidiaSmi(const std::string& file, const Lines& lines, const TraceReadOptions& o) {
    TraceData data;
    data.file = file;
    data.format = "nvidia_smi";
    std::size_t first = 0;
    while (first < lines.text.size() && trim(lines.text[first]).empty()) ++first;
    if (first == lines.text.size()) throw InputError(fmt::format("{}: trace file is empty", file));

    // Header: the first line, unless it opens with a timestamp (noheader) — then `fields`.
    std::vector<std::string> header;
    std::size_t data_begin = first;
    const auto first_fields = split(lines.text[first], ',');
    auto stripped = [](const std::string& h) {
        std::string n, u;
        splitHeaderUnit(h, n, u);
        return lower(n);
    };
    if (!o.fields.empty()) {
        header = split(o.fields, ',');
        // A header line as well (csv without noheader): skip it.
        if (stripped(first_fields[0]) == stripped(header[0])) data_begin = first + 1;
    } else {
        double x;
        std::string u;
        for (const auto& f : first_fields) {
            if (looksLikeDateTime(trim(f)) || parseValueWithUnit(f, x, u)) {
                fail(file, first + 1,
                     "this nvidia-smi log has no header (--format=csv,noheader); give the "
                     "--query-gpu list as \"fields\" (e.g. \"timestamp,index,power.draw\"; "
                     "dctwin trace inspect: --fields timestamp,index,power.draw)");
            }
        }
        header = first_fields;
        data_begin = first + 1;
    }
    std::vector<std::string> names, units;
    for (const auto& h : header) {
        std::string n, u;
        splitHeaderUnit(h, n, u);
        names.push_back(n);
        units.push_back(u);
    }
    const auto find = [&](std::initializer_list<const char*> keys) -> std::ptrdiff_t {
        for (const char* k : keys) {
            for (std::size_t c = 0; c < names.size(); ++c) {
                if (lower(names[c]) == k) return static_cast<std::ptrdiff_t>(c);
            }
        }
        return -1;
    };
    const std::ptrdiff_t tcol = find({"timestamp"});
    const std::ptrdiff_t dcol = find({"index", "pci.bus_id", "gpu_bus_id", "uuid", "gpu_uuid"});
    if (tcol < 0 && !(o.interval > 0)) {
        fail(file, first + 1,
             fmt::format("no 'timestamp' field among {}; log it (--query-gpu=timestamp,...) or "
                         "give the polling interval as \"interval_s\"",
                         fmt::join(names, ", ")));
    }
    data.time_column = tcol >= 0 ? names[static_cast<std::size_t>(tcol)] : "";
    data.absolute_time = tcol >= 0;

    // Value columns: every field but time, device and text; units from the header or the
    // first value's suffix (checked on every row).
    struct Col {
        std::size_t field;
        Unit unit;
        std::string declared;  // header unit as written
        // What its values must be in: the header's unit, the field's implied one, or the
        // unit of the first value that carried one (line `from`, 0 for header or implied).
        std::string canonical;
        std::size_t from = 0;
    };
    std::vector<Col> cols;
    std::vector<std::size_t> first_row_fields;
    for (std::size_t c = 0; c < names.size(); ++c) {
        if (static_cast<std::ptrdiff_t>(c) == tcol || static_cast<std::ptrdiff_t>(c) == dcol ||
            isTextField(names[c])) {
            continue;
        }
        Unit u;
        if (!lookupUnit(units[c], u)) {
            fail(file, first + 1,
                 fmt::format("field '{}': unknown unit '{}' in the header; known units: {}",
                             names[c], units[c], knownUnits()));
        }
        if (u.canonical.empty()) u.canonical = impliedUnit(names[c]);
        cols.push_back({c, u, units[c], u.canonical, 0});
        data.columns.push_back({names[c], u.canonical, units[c]});
    }
    if (cols.empty()) {
        fail(file, first + 1,
             fmt::format("no measurement fields among {}", fmt::join(names, ", ")));
    }

    struct Row {
        std::string device;
        double time;
        std::vector<double> values;
        std::size_t line;
        std::string stamp;
    };
    std::vector<Row> rows;
    for (std::size_t i = data_begin; i < lines.text.size(); ++i) {
        const std::string& text = lines.text[i];
        if (trim(text).empty()) continue;
        const std::size_t ln = i + 1;
        Row r;
        const bool keep = parseUnlessCutShort(data, lines, i, [&] {
            const auto f = split(text, ',');
            if (f.size() != names.size()) {
                fail(file, ln,
                     fmt::format("expected {} comma-separated fields ({}), found {}", names.size(),
                                 fmt::join(names, ", "), f.size()));
            }
            r.line = ln;
            if (tcol >= 0) {
                r.stamp = trim(f[static_cast<std::size_t>(tcol)]);
                if (!parseDateTime(r.stamp, o.utc_offset, r.time)) {
                    fail(file, ln,
                         fmt::format("field 'timestamp': '{}' is not a datetime "
                                     "(YYYY/MM/DD HH:MM:SS.fff)",
                                     r.stamp));
                }
            }
            if (dcol >= 0) r.device = trim(f[static_cast<std::size_t>(dcol)]);
            for (Col& c : cols) {
                const std::string& raw = f[c.field];
                if (isMissing(raw)) {
                    r.values.push_back(NAN);
                    continue;
                }
                double v;
                std::string unit;
                if (!parseValueWithUnit(raw, v, unit)) {
                    fail(
                        file, ln,
                        fmt::format("field '{}' is '{}', not a number", names[c.field], trim(raw)));
                }
                Unit u = c.unit;
                if (!unit.empty()) {
                    Unit vu;
                    if (!lookupUnit(unit, vu)) {
                        fail(file, ln,
                             fmt::format("field '{}': unknown unit '{}' in '{}'; known units: {}",
                                         names[c.field], unit, trim(raw), knownUnits()));
                    }
                    // A unit that contradicts the field's ("100 %" in power.draw: the
                    // fields listed in another order than logged) is an error, not a value
                    // read in the wrong unit.
                    if (!c.canonical.empty() && vu.canonical != c.canonical) {
                        const std::string why =
                            !c.declared.empty()
                                ? fmt::format("does not match the header's [{}]", c.declared)
                            : c.from > 0
                                ? fmt::format("but the field's values are in {} (line {})",
                                              c.canonical, c.from)
                                : fmt::format(
                                      "but nvidia-smi logs {} in {}{}", names[c.field], c.canonical,
                                      o.fields.empty() ? std::string()
                                                       : "; check that \"fields\" lists the "
                                                         "--query-gpu fields in the log's order");
                        fail(file, ln,
                             fmt::format("field '{}' is '{}': unit '{}' {}", names[c.field],
                                         trim(raw), unit, why));
                    }
                    if (c.canonical.empty()) {
                        // The column's unit is its first value's (as the header comment says).
                        c.canonical = vu.canonical;
                        c.from = ln;
                        data.columns[static_cast<std::size_t>(&c - cols.data())].unit =
                            vu.canonical;
                        data.columns[static_cast<std::size_t>(&c - cols.data())].source_unit = unit;
                    }
                    u = vu;
                }
                r.values.push_back(v * u.factor);
            }
        });
        if (keep) rows.push_back(std::move(r));
    }
    if (rows.empty()) throw InputError(fmt::format("{}: no data rows", file));

    if (tcol < 0) {
        // No stamps: rows are cycles of the devices in order, `interval` apart.
        std::map<std::string, std::size_t> seen;
        std::size_t cycle = 0;
        for (auto& r : rows) {
            const std::string key = dcol >= 0 ? r.device : "";
            if (++seen[key] > cycle + 1) ++cycle;
            r.time = static_cast<double>(cycle) * o.interval;
        }
    }
    if (dcol < 0) {
        // Devices by position in their polling cycle.
        std::vector<std::size_t> starts{0};
        if (o.gpus > 0) {
            for (std::size_t k = static_cast<std::size_t>(o.gpus); k < rows.size();
                 k += static_cast<std::size_t>(o.gpus)) {
                starts.push_back(k);
            }
        } else {
            std::vector<double> t;
            for (const auto& r : rows) t.push_back(r.time);
            const double thr = cycleThreshold(t);
            for (std::size_t k = 1; k < rows.size(); ++k) {
                if (thr <= 0.0 || rows[k].time - rows[k - 1].time > thr) starts.push_back(k);
            }
        }
        starts.push_back(rows.size());
        std::map<std::size_t, std::size_t> count;  // rows per cycle → cycles
        for (std::size_t c = 0; c + 1 < starts.size(); ++c) ++count[starts[c + 1] - starts[c]];
        const std::size_t n =
            o.gpus > 0 ? static_cast<std::size_t>(o.gpus)
                       : std::max_element(count.begin(), count.end(), [](auto& a, auto& b) {
                             return a.second < b.second;
                         })->first;
        for (std::size_t c = 0; c + 1 < starts.size(); ++c) {
            const std::size_t k = starts[c + 1] - starts[c];
            if (k != n) {
                if (c + 2 == starts.size() && k < n) {
                    data.warnings.push_back(
                        fmt::format("last polling cycle (from line {}) has {} of {} GPUs; dropped",
                                    rows[starts[c]].line, k, n));
                    rows.resize(starts[c]);
                    break;
                }
                fail(file, rows[starts[c]].line,
                     fmt::format("polling cycle starting here has {} rows, the others {} (one "
                                 "per GPU); rows without an index are assigned to GPUs by "
                                 "their position in the cycle{}",
                                 k, n, o.gpus > 0 ? " (\"gpus\" is given)" : ""));
            }
            for (std::size_t r = starts[c]; r < starts[c + 1]; ++r) {
                rows[r].device = std::to_string(r - starts[c]);
            }
        }
    }
    TraceBuilder b(data);
    for (auto& r : rows) b.add(r.device, r.time, std::move(r.values), r.line, r.stamp);
    b.finish();
    return data;
}

}  // namespace dctwin::power::trace_detail
