// DCGM telemetry (power/trace.h): `dcgmi dmon` text and dcgm-exporter's Prometheus exposition.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "core/errors.h"
#include "power/trace_parse.h"

namespace dctwin::power::trace_detail {
namespace {

/// Units of DCGM fields (DCGM field reference: power W, energy mJ, temperatures C, utilization
/// %, profiling activities as ratios 0..1, frame buffer MiB, clocks MHz).
std::string dcgmUnit(const std::string& name) {
    static const std::map<std::string, std::string> kUnits = {
        // dcgmi dmon short names
        {"POWER", "W"},
        {"TOTEC", "mJ"},
        {"GTEMP", "C"},
        {"MTEMP", "C"},
        {"GPUTL", "%"},
        {"MCUTL", "%"},
        {"SMCLK", "MHz"},
        {"MMCLK", "MHz"},
        {"FBUSD", "MiB"},
        {"FBFRE", "MiB"},
        {"SMACT", "ratio"},
        {"SMOCC", "ratio"},
        {"TENSO", "ratio"},
        {"DRAMA", "ratio"},
        {"GRACT", "ratio"},
        {"FP64A", "ratio"},
        {"FP32A", "ratio"},
        {"FP16A", "ratio"},
        // dcgm-exporter names
        {"DCGM_FI_DEV_POWER_USAGE", "W"},
        {"DCGM_FI_DEV_POWER_USAGE_INSTANT", "W"},
        {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "mJ"},
        {"DCGM_FI_DEV_GPU_TEMP", "C"},
        {"DCGM_FI_DEV_MEMORY_TEMP", "C"},
        {"DCGM_FI_DEV_GPU_UTIL", "%"},
        {"DCGM_FI_DEV_MEM_COPY_UTIL", "%"},
        {"DCGM_FI_DEV_FB_USED", "MiB"},
        {"DCGM_FI_DEV_FB_FREE", "MiB"},
        {"DCGM_FI_DEV_SM_CLOCK", "MHz"},
        {"DCGM_FI_DEV_MEM_CLOCK", "MHz"},
        {"DCGM_FI_PROF_GR_ENGINE_ACTIVE", "ratio"},
        {"DCGM_FI_PROF_SM_ACTIVE", "ratio"},
        {"DCGM_FI_PROF_SM_OCCUPANCY", "ratio"},
        {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "ratio"},
        {"DCGM_FI_PROF_DRAM_ACTIVE", "ratio"},
    };
    const auto it = kUnits.find(name);
    return it == kUnits.end() ? "" : it->second;
}

/// Start column of each whitespace-separated token.
std::vector<std::pair<std::size_t, std::string>> tokens(const std::string& s) {
    std::vector<std::pair<std::size_t, std::string>> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        const std::size_t b = i;
        while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        if (i > b) out.emplace_back(b, s.substr(b, i - b));
    }
    return out;
}

/// The polling cycle of each dcgmi dmon row (entity ids in file order; see readDcgmDmon).
/// The print order is that of the first cycle which lists every entity (cycles split at
/// repeats); without one, or when the rows contradict it, cycles are split at repeats only.
/// Warns when cycles miss entities (they are gaps of those entities).
template <class Row>
std::vector<std::size_t> dmonCycles(const std::vector<Row>& rows,
                                    std::vector<std::string>& warnings) {
    std::map<std::string, std::size_t> rank;  // entity → position in the print order
    std::set<std::string> all;
    for (const auto& r : rows) all.insert(r.device);
    {
        std::vector<std::string> segment;
        std::set<std::string> in_segment;
        for (std::size_t k = 0; k <= rows.size() && rank.empty(); ++k) {
            if (k == rows.size() || in_segment.count(rows[k].device)) {
                if (in_segment.size() == all.size()) {
                    for (std::size_t i = 0; i < segment.size(); ++i) rank[segment[i]] = i;
                }
                segment.clear();
                in_segment.clear();
            }
            if (k < rows.size()) {
                segment.push_back(rows[k].device);
                in_segment.insert(rows[k].device);
            }
        }
    }
    struct Split {
        std::vector<std::size_t> cycle;
        std::size_t cycles = 0, incomplete = 0, first_incomplete_line = 0;
    };
    const auto split = [&](bool by_rank) {
        Split out;
        out.cycle.assign(rows.size(), 0);
        std::set<std::string> current;
        std::size_t start_line = 0;
        const auto close = [&] {
            if (current.size() < all.size() && out.incomplete++ == 0) {
                out.first_incomplete_line = start_line;
            }
            current.clear();
            ++out.cycles;
        };
        for (std::size_t k = 0; k < rows.size(); ++k) {
            const std::string& e = rows[k].device;
            const bool repeat = current.count(e) > 0;
            const bool earlier =
                by_rank && !current.empty() && rank.at(e) < rank.at(rows[k - 1].device);
            if (repeat || earlier) close();
            if (current.empty()) start_line = rows[k].line;
            current.insert(e);
            out.cycle[k] = out.cycles;
        }
        // The last cycle is not judged: a log stopped mid-cycle lacks no sample inside it.
        if (!current.empty()) ++out.cycles;
        return out;
    };
    Split s = split(!rank.empty());
    // Rows that contradict the order (more than half the cycles incomplete): not one print
    // order after all; split at repeats only.
    const bool contradicted = !rank.empty() && 2 * s.incomplete > s.cycles;
    if (contradicted) s = split(false);
    if (s.incomplete > 0) {
        warnings.push_back(fmt::format(
            "{} of {} polling cycles lack some of the {} entities (the first from line {}); "
            "their missing samples are gaps{}",
            s.incomplete, s.cycles, all.size(), s.first_incomplete_line,
            rank.empty() || contradicted
                ? "; the entities come in no fixed order, so cycles are split where an entity "
                  "repeats, and a cycle that misses its first entity merges with the next"
                : ""));
    }
    const std::vector<std::size_t> cycle = std::move(s.cycle);
    return cycle;
}

}  // namespace

TraceData readDcgmDmon(const std::string& file, const Lines& lines, const TraceReadOptions& o) {
    TraceData data;
    data.file = file;
    data.format = "dcgm_dmon";
    const double interval = o.interval > 0 ? o.interval : 1.0;
    if (!(o.interval > 0)) {
        data.warnings.push_back(
            "dcgmi dmon prints no timestamps; cycles taken 1 s apart (dcgmi's default -d 1000); "
            "give \"interval_s\" if the log used another -d");
    }
    std::vector<std::string> names;
    std::vector<Unit> units;
    std::vector<std::pair<std::size_t, std::string>> header_tokens;
    struct Row {
        std::string device;
        std::vector<double> values;
        std::size_t line;
    };
    std::vector<Row> rows;
    for (std::size_t i = 0; i < lines.text.size(); ++i) {
        const std::string& text = lines.text[i];
        const std::size_t ln = i + 1;
        const std::string t = trim(text);
        if (t.empty()) continue;
        if (t[0] == '#') {
            // "#Entity  POWER  GTEMP" (or "# Entity ..."): the field names.
            std::string h = text;
            h[h.find('#')] = ' ';  // keep the columns where they are
            auto tk = tokens(h);
            if (tk.empty() || lower(tk[0].second) != "entity") continue;
            tk.erase(tk.begin());
            std::vector<std::string> n;
            for (const auto& x : tk) n.push_back(x.second);
            if (!names.empty() && n != names) {
                fail(file, ln,
                     fmt::format("header lists {} but the first header listed {}; one log per "
                                 "field set",
                                 fmt::join(n, ", "), fmt::join(names, ", ")));
            }
            if (names.empty()) {
                names = n;
                header_tokens = tk;
                units.clear();
                for (const auto& f : names) {
                    Unit u;
                    lookupUnit(dcgmUnit(f), u);
                    units.push_back(u);
                    data.columns.push_back({f, u.canonical, dcgmUnit(f)});
                }
            }
            continue;
        }
        const auto tk = tokens(text);
        if (lower(tk[0].second) == "id") {
            // Units line: each unit sits under the field whose column it starts in.
            for (std::size_t k = 1; k < tk.size() && !header_tokens.empty(); ++k) {
                std::size_t f = 0;
                for (std::size_t h = 0; h < header_tokens.size(); ++h) {
                    if (header_tokens[h].first <= tk[k].first + 2) f = h;
                }
                Unit u;
                if (!lookupUnit(tk[k].second, u)) {
                    fail(file, ln,
                         fmt::format("field '{}': unknown unit '{}'; known units: {}", names[f],
                                     tk[k].second, knownUnits()));
                }
                units[f] = u;
                data.columns[f].unit = u.canonical;
                data.columns[f].source_unit = tk[k].second;
            }
            continue;
        }
        Row r;
        const bool keep = parseUnlessCutShort(data, lines, i, [&] {
            if (names.empty()) {
                fail(file, ln, "data row before the '#Entity ...' header of dcgmi dmon");
            }
            if (tk.size() != names.size() + 2) {
                fail(file, ln,
                     fmt::format("expected an entity ('GPU 0') and {} values ({}), found {} "
                                 "fields",
                                 names.size(), fmt::join(names, ", "), tk.size()));
            }
            r.line = ln;
            r.device = tk[0].second + " " + tk[1].second;
            for (std::size_t k = 0; k < names.size(); ++k) {
                const std::string& raw = tk[k + 2].second;
                if (isMissing(raw)) {
                    r.values.push_back(NAN);
                    continue;
                }
                double v;
                if (!parseNumber(raw, v)) {
                    fail(file, ln, fmt::format("field '{}' is '{}', not a number", names[k], raw));
                }
                r.values.push_back(v * units[k].factor);
            }
        });
        if (keep) rows.push_back(std::move(r));
    }
    if (names.empty()) throw InputError(fmt::format("{}: no '#Entity ...' header", file));
    // Cycles: dcgmi prints the entities in the same order every cycle. A cycle ends when an
    // entity comes round again, or when one comes that stands earlier in that order than the
    // row before it: counting repeats alone merged the cycle after one that missed the first
    // entity into it, and every later sample of that entity was one interval early.
    const std::vector<std::size_t> cycles = dmonCycles(rows, data.warnings);
    TraceBuilder b(data);
    for (std::size_t k = 0; k < rows.size(); ++k) {
        auto& r = rows[k];
        b.add(r.device, static_cast<double>(cycles[k]) * interval, std::move(r.values), r.line, "");
    }
    b.finish();
    return data;
}

namespace {

struct PromSample {
    std::string metric;
    std::map<std::string, std::string> labels;
    double value = 0;
    bool has_time = false;
    double time = 0;  // [s]
};

/// `name{k="v",...} value [timestamp_ms]`; InputError naming the line on malformed text.
PromSample parsePromLine(const std::string& file, std::size_t ln, const std::string& s) {
    PromSample p;
    std::size_t i = 0;
    while (i < s.size() &&
           (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == ':')) {
        ++i;
    }
    p.metric = s.substr(0, i);
    if (p.metric.empty()) fail(file, ln, fmt::format("'{}' is not a metric sample", s));
    if (i < s.size() && s[i] == '{') {
        ++i;
        while (i < s.size() && s[i] != '}') {
            while (i < s.size() && (s[i] == ',' || s[i] == ' ')) ++i;
            if (i < s.size() && s[i] == '}') break;
            const std::size_t eq = s.find('=', i);
            if (eq == std::string::npos || eq + 1 >= s.size() || s[eq + 1] != '"') {
                fail(file, ln, fmt::format("metric '{}': malformed labels", p.metric));
            }
            const std::string key = trim(s.substr(i, eq - i));
            std::string val;
            i = eq + 2;
            while (i < s.size() && s[i] != '"') {
                if (s[i] == '\\' && i + 1 < s.size()) ++i;
                val.push_back(s[i++]);
            }
            if (i >= s.size()) fail(file, ln, fmt::format("metric '{}': unclosed label", p.metric));
            ++i;
            p.labels[key] = val;
        }
        if (i >= s.size()) fail(file, ln, fmt::format("metric '{}': missing '}}'", p.metric));
        ++i;
    }
    std::istringstream rest(s.substr(i));
    std::string value, stamp, extra;
    rest >> value >> stamp >> extra;
    if (value.empty()) fail(file, ln, fmt::format("metric '{}': no value", p.metric));
    if (!parseNumber(value, p.value)) {
        fail(file, ln, fmt::format("field '{}' is '{}', not a number", p.metric, value));
    }
    if (!stamp.empty()) {
        double ms;
        if (!parseNumber(stamp, ms) || !extra.empty()) {
            fail(file, ln,
                 fmt::format("metric '{}': timestamp '{}' is not milliseconds since 1970", p.metric,
                             stamp));
        }
        p.has_time = true;
        p.time = ms / 1e3;
    }
    return p;
}

}  // namespace

TraceData readDcgmPrometheus(const std::string& file, const Lines& lines,
                             const TraceReadOptions& o) {
    TraceData data;
    data.file = file;
    data.format = "dcgm_prometheus";
    std::vector<std::pair<PromSample, std::size_t>> samples;
    for (std::size_t i = 0; i < lines.text.size(); ++i) {
        const std::string t = trim(lines.text[i]);
        if (t.empty() || t[0] == '#') continue;
        PromSample sample;
        if (parseUnlessCutShort(data, lines, i, [&] { sample = parsePromLine(file, i + 1, t); })) {
            samples.emplace_back(std::move(sample), i + 1);
        }
    }
    if (samples.empty()) throw InputError(fmt::format("{}: no metric samples", file));
    std::map<std::string, std::size_t> column_of;
    std::set<std::string> hosts;
    std::size_t stamped = 0;
    for (const auto& [p, ln] : samples) {
        if (!column_of.count(p.metric)) {
            column_of[p.metric] = data.columns.size();
            Unit u;
            lookupUnit(dcgmUnit(p.metric), u);
            data.columns.push_back({p.metric, u.canonical, dcgmUnit(p.metric)});
        }
        const auto h = p.labels.find("Hostname");
        if (h != p.labels.end()) hosts.insert(h->second);
        stamped += p.has_time;
    }
    if (stamped != 0 && stamped != samples.size()) {
        for (const auto& [p, ln] : samples) {
            if (!p.has_time) {
                fail(file, ln,
                     fmt::format("metric '{}' has no timestamp while others have; a log is "
                                 "either stamped or not",
                                 p.metric));
            }
        }
    }
    const bool stamps = stamped != 0;
    data.absolute_time = stamps;
    data.time_column = stamps ? "timestamp" : "";
    const double interval = o.interval > 0 ? o.interval : 1.0;
    if (!stamps && !(o.interval > 0)) {
        data.warnings.push_back(
            "samples carry no timestamps; scrapes taken 1 s apart (give \"interval_s\")");
    }
    // (device, time) → one row; without stamps a scrape ends when a series repeats.
    struct Row {
        std::vector<double> values;
        std::size_t line;
        std::vector<std::size_t> lines;  // per column: the line its value came from
    };
    std::map<std::string, std::map<double, Row>> rows;
    std::size_t repeated = 0, first_repeat = 0, first_repeated = 0;  // identical duplicates
    std::set<std::string> in_scrape;
    std::size_t scrape = 0;
    for (const auto& [p, ln] : samples) {
        std::string dev;
        for (const char* key : {"gpu", "GPU", "device", "UUID"}) {
            const auto it = p.labels.find(key);
            if (it != p.labels.end()) {
                dev = it->second;
                break;
            }
        }
        if (dev.empty()) {
            fail(file, ln,
                 fmt::format("metric '{}' has no gpu label (gpu=\"0\", device or UUID)", p.metric));
        }
        if (hosts.size() > 1) {
            const auto h = p.labels.find("Hostname");
            dev = (h == p.labels.end() ? std::string("?") : h->second) + ":" + dev;
        }
        const std::string series = p.metric + "|" + dev;
        if (!stamps && !in_scrape.insert(series).second) {
            ++scrape;
            in_scrape = {series};
        }
        const double t = stamps ? p.time : static_cast<double>(scrape) * interval;
        auto& row = rows[dev][t];
        if (row.values.empty()) {
            row.values.assign(data.columns.size(), NAN);
            row.lines.assign(data.columns.size(), 0);
            row.line = ln;
        }
        // Not a lambda: clang 14 (Debian 12's, the fuzz build) cannot capture a structured
        // binding such as p.
        const std::size_t col = column_of[p.metric];
        Unit u;
        lookupUnit(data.columns[col].source_unit, u);
        const double value = p.value * u.factor;
        if (row.lines[col] != 0) {
            // The same series twice at one timestamp (two scrapes concatenated, an exporter
            // restarted): the last one won quietly, where nvidia-smi's reader refuses such
            // rows. Identical copies are dropped; different values are an error.
            if (row.values[col] != value) {
                fail(file, ln,
                     fmt::format("metric '{}' of gpu '{}' at timestamp {:.0f} ms is {:g} here but "
                                 "{:g} on line {}; one sample per series and time (remove the "
                                 "repeated scrape)",
                                 p.metric, dev, t * 1e3, p.value, row.values[col] / u.factor,
                                 row.lines[col]));
            }
            if (repeated++ == 0) {
                first_repeat = ln;
                first_repeated = row.lines[col];
            }
            continue;
        }
        row.values[col] = value;
        row.lines[col] = ln;
    }
    if (repeated > 0) {
        data.warnings.push_back(
            fmt::format("{} samples repeat a series at a timestamp it already has, with the same "
                        "value, and are dropped (the first: line {} repeats line {})",
                        repeated, first_repeat, first_repeated));
    }
    TraceBuilder b(data);
    for (auto& [dev, by_time] : rows) {
        for (auto& [t, row] : by_time) {
            row.values.resize(data.columns.size(), NAN);
            b.add(dev, t, std::move(row.values), row.line, "");
        }
    }
    b.finish();
    return data;
}

}  // namespace dctwin::power::trace_detail
