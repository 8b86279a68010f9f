// The CLI commands: load, run, write, print. All modelling is in facility/.
#include "cli/commands.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <variant>

#include "core/display.h"
#include "core/errors.h"
#include "core/io/report_writer.h"
#include "core/json.h"
#include "core/parallel/work_queue.h"
#include "facility/metrics.h"
#include "facility/scenario.h"
#include "facility/sweep.h"
#include "facility/twin.h"
#include "power/trace_inspect.h"

namespace dctwin::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// Progress on stderr: a redrawn bar with ETA on a terminal, a plain line per 10 % otherwise.
class ProgressPrinter {
public:
    ProgressPrinter(const Options& o, std::string label)
        : o_(o), label_(std::move(label)), start_(Clock::now()) {}
    ~ProgressPrinter() {
        if (!o_.quiet && o_.progress_tty && drawn_) std::cerr << "\n";
    }
    void operator()(double fraction, double /*t*/) {
        if (o_.quiet) return;
        std::lock_guard lock(mutex_);
        const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
        if (o_.progress_tty) {
            const int width = 30;
            const int filled = static_cast<int>(std::lround(fraction * width));
            const double eta = fraction > 1e-3 ? elapsed * (1.0 - fraction) / fraction : 0.0;
            std::cerr << fmt::format("\r{} [{}{}] {:5.1f} %  ETA {:.0f} s ", label_,
                                     std::string(filled, '#'), std::string(width - filled, '.'),
                                     100.0 * fraction, eta);
            drawn_ = true;
        } else {
            const int decile = static_cast<int>(std::floor(fraction * 10.0 + 1e-9));
            if (decile > last_decile_) {
                last_decile_ = decile;
                std::cerr << fmt::format("{}: {:3d} % ({:.1f} s)\n", label_, decile * 10, elapsed);
            }
        }
    }

private:
    const Options& o_;
    std::string label_;
    Clock::time_point start_;
    std::mutex mutex_;
    bool drawn_ = false;
    int last_decile_ = -1;
};

/// The scenario (or sweep) file must be a readable regular file; checked here because the
/// loader would read a directory as empty text ("unexpected end of input") and a path too
/// long for the system as a filesystem exception.
void checkInputFile(const std::string& file, std::string_view what) {
    std::error_code ec;
    const fs::file_status st = fs::status(file, ec);
    if (ec && ec != std::errc::no_such_file_or_directory) {
        throw InputError(
            fmt::format("cannot read {} file '{}': {}", what, quoteValue(file), ec.message()));
    }
    if (!fs::exists(st)) {
        throw InputError(
            fmt::format("cannot read {} file '{}': no such file", what, quoteValue(file)));
    }
    if (fs::is_directory(st)) {
        throw InputError(
            fmt::format("cannot read {} file '{}': it is a directory; expected a "
                        "{} JSON file",
                        what, quoteValue(file), what));
    }
}

/// Warnings on stderr, as `dctwin trace inspect` gives them ("warning: ..."), whatever
/// --quiet says: they are about the input, not progress.
void printWarnings(const std::vector<std::string>& warnings) {
    for (const std::string& w : warnings) std::cerr << "dctwin: warning: " << w << "\n";
}

/// Reads a scenario file and prints what reading it warned about (a trace's cut-off last line
/// dropped: `run` dropped it without a word while `trace inspect` warned).
facility::ScenarioSpec loadScenarioFile(const std::string& file) {
    checkInputFile(file, "scenario");
    facility::ScenarioSpec s = facility::loadScenario(file);
    printWarnings(facility::scenarioWarnings(s));
    return s;
}

namespace {
// Figures at the scale of the study: a 30 s replay's "0.0 h" and "0.1 MWh" said nothing
// (durations: facility::durationText).
std::string energyText(double MWh) {
    return std::abs(MWh) >= 100.0 ? fmt::format("{:.1f} MWh", MWh)
                                  : fmt::format("{:.1f} kWh", MWh * 1e3);
}
std::string waterText(double m3) {
    return std::abs(m3) >= 10.0 ? fmt::format("{:.1f} m3", m3) : fmt::format("{:.0f} L", m3 * 1e3);
}
}  // namespace

void printSummary(const facility::ScenarioSpec& scenario, const facility::RunOutcome& r) {
    const Json& s = r.summary;
    auto num = [&](const char* key) {
        return s.contains(key) && s[key].is_number() ? s[key].get<double>() : NAN;
    };
    std::cout << fmt::format("scenario            {}\n", s.value("scenario", std::string()));
    if (s.value("study", std::string()) == "design_point") {
        // No time series: the steady state at peak IT on the design day, as `dctwin size`
        // prints it with its tables.
        std::cout << fmt::format(
            "study               design_point  (steady, full load, {:.1f} C dry bulb / {:.1f} C "
            "wet bulb)\n",
            num("design_dry_bulb_C"), num("design_wet_bulb_C"));
        std::cout << fmt::format("IT power            {:.0f} kW   facility power {:.0f} kW\n",
                                 num("design_it_power_kW"), num("design_facility_power_kW"));
        std::cout << fmt::format("PUE                 {:.4f}\n", num("design_pue"));
        std::cout << fmt::format("water               {:.1f} m3/day    ({:.2f} m3/h)\n",
                                 num("design_water_m3_per_day"), num("design_water_m3_per_h"));
        std::cout << fmt::format(
            "GPU junction peak   {:.1f} C   hottest cold plate {:.1f} C   "
            "throttle margin {:.1f} K\n",
            num("design_max_gpu_junction_C"), num("design_max_gpu_plate_C"),
            num("design_throttle_margin_K"));
        const double miss = num("design_setpoint_unmet_K");
        std::cout << fmt::format("facility supply     {:.1f} C, {}\n",
                                 num("design_fws_supply_temp_C"),
                                 miss > 0.05 ? fmt::format("{:.2f} K above its setpoint", miss)
                                             : std::string("its setpoint held"));
        std::cout << "sizing              in the report's /sizing tables (dctwin size prints "
                     "them)\n";
        return;
    }
    std::cout << fmt::format("study               {}  ({} simulated)\n",
                             s.value("study", std::string()),
                             facility::durationText(num("simulated_h")));
    std::cout << fmt::format("IT energy           {}   peak IT {:.0f} kW\n",
                             energyText(num("it_energy_MWh")), num("peak_it_kW"));
    std::cout << fmt::format("facility energy     {}   peak facility {:.0f} kW\n",
                             energyText(num("facility_energy_MWh")), num("peak_facility_kW"));
    std::cout << fmt::format("PUE                 {:.4f}\n", num("pue"));
    std::cout << fmt::format("water               {}    WUE {:.3f} L/kWh\n",
                             waterText(num("water_m3")), num("wue_L_per_kWh"));
    std::cout << fmt::format("GPU junction peak   {:.1f} C   hottest cold plate {:.1f} C\n",
                             num("max_gpu_junction_C"), num("max_gpu_plate_C"));
    const std::string kind = s.value("study", std::string());
    if ((kind == "transient" || kind == "contingency") &&
        std::isfinite(num("rack_demand_swing_kW"))) {
        // A resolved study is run for its swings: what the racks ask, what the grid side of
        // the PSUs draws after smoothing, what the utility sees after the losses and any
        // battery; and what the smoothing cost.
        std::cout << fmt::format(
            "power swing         racks {:.0f} kW, IT at the grid {:.0f} kW, utility {:.0f} kW "
            "(max - min)\n",
            num("rack_demand_swing_kW"), num("it_grid_swing_kW"), num("utility_swing_kW"));
        // A ramp over 1 s needs samples at most 1 s apart; on a coarser grid the metrics are
        // NaN, and "racks nan MW/s" read as a failed run.
        if (std::isfinite(num("rack_demand_max_ramp_1s_MW_per_s"))) {
            std::cout << fmt::format(
                "ramp over 1 s       racks {:.2f} MW/s, IT at the grid {:.2f} MW/s, utility "
                "{:.2f} MW/s\n",
                num("rack_demand_max_ramp_1s_MW_per_s"), num("it_grid_max_ramp_1s_MW_per_s"),
                num("utility_max_ramp_1s_MW_per_s"));
        } else {
            std::cout << "ramp over 1 s       not resolved: the output interval is longer than "
                         "1 s (set study/output_interval_s to 1 s or less)\n";
        }
        if (s.value("power_smoothing", false)) {
            std::cout << fmt::format(
                "smoothing           burnt {} ({:.1f} % of IT energy), deferred {} ({:.1f} % of "
                "demand)\n",
                energyText(num("smoothing_burn_energy_MWh")),
                100.0 * num("smoothing_burn_energy_MWh") / num("it_energy_MWh"),
                energyText(num("smoothing_deferred_energy_MWh")), num("smoothing_deferred_pct"));
        }
        if (std::isfinite(num("gpu_cycles_over_2K_per_day"))) {
            std::cout << fmt::format(
                "GPU thermal cycles  {:.0f} a day above 2 K, the largest {:.1f} K\n",
                num("gpu_cycles_over_2K_per_day"), num("max_gpu_cycle_range_K"));
        }
    }
    if (scenario.namedHalls()) {
        // A campus: each hall's own figures, which the campus totals above sum and blur (a
        // hall on towers drinks where a hall on dry coolers does not); the fabric, air side
        // and electrical losses are the campus's, not a hall's.
        std::cout << fmt::format("{:<20}{:<14}{:<12}{:<8}{:<13}{:<14}{}\n", "halls", "IT energy",
                                 "cooling", "pPUE", "water", "WUE", "junction peak");
        double hall_it = 0.0;
        for (const facility::HallSpec& h : scenario.halls) {
            const std::string p = "hall_" + h.name + "_";
            auto hall = [&](const std::string& key) { return num((p + key).c_str()); };
            hall_it += hall("it_energy_MWh");
            std::cout << fmt::format(
                "  {:<18}{:<14}{:<12}{:<8.4f}{:<13}{:<14}{:.1f} C\n", h.name,
                energyText(hall("it_energy_MWh")), energyText(hall("cooling_energy_MWh")),
                hall("ppue_cooling"), waterText(hall("water_m3")),
                fmt::format("{:.3f} L/kWh", hall("wue_L_per_kWh")), hall("max_gpu_junction_C"));
        }
        std::cout << fmt::format("  {:<18}fabric {}, air side {}, electrical losses {}\n", "campus",
                                 energyText(num("it_energy_MWh") - hall_it),
                                 energyText(num("air_side_energy_MWh")),
                                 energyText(num("electrical_loss_energy_MWh")));
    }
    std::cout << fmt::format("energy balance      {:.2e} (relative error)\n",
                             num("energy_balance_rel_error"));
    // What the plant did not hold, only when it did not: the figures a reader must not miss
    // among the summary's hundred keys.
    const std::vector<std::string> short_of = facility::notHeld(r.report.summary);
    for (std::size_t i = 0; i < short_of.size(); ++i) {
        std::cout << (i == 0 ? "not held            " : "                    ") << short_of[i]
                  << "\n";
    }
    // A contingency: its event log as it happened, then what it cost.
    if (s.contains("contingency") && s["contingency"].is_object()) {
        const Json& c = s["contingency"];
        bool first = true;
        for (const Json& l : c.value("log", Json::array())) {
            if (!l.contains("t_s") || !l["t_s"].is_number()) continue;
            std::cout << (first ? "events              " : "                    ")
                      << fmt::format("{:>8.1f} s  {}\n", l["t_s"].get<double>(),
                                     l.value("event", std::string()));
            first = false;
        }
        if (std::isfinite(num("ups_ride_through_s"))) {
            std::cout << fmt::format("UPS ride-through    {:.1f} s, battery down to {:.1f} %\n",
                                     num("ups_ride_through_s"), 100 * num("ups_battery_soe_min"));
        }
        if (std::isfinite(num("it_dropped_at_s"))) {
            std::cout << fmt::format("IT load dropped     {:.1f} s after the loss, {} not served\n",
                                     num("it_dropped_at_s"), energyText(num("it_load_lost_MWh")));
        }
        const Json& throttle = c.value("first_throttle_after_s", Json());
        std::cout << fmt::format(
            "GPU throttle        {}; least margin {:.1f} K\n",
            throttle.is_number()
                ? fmt::format("first {:.1f} s after the event", throttle.get<double>())
                : std::string("none"),
            c.value("min_throttle_margin_K", NAN));
        if (c.value("overload", false)) {
            std::cout << "overload            a UPS or transformer above its rating (see the "
                         "loading series)\n";
        }
    }
    std::cout << fmt::format(
        "solver              {} states, {} linear solver, {} steps, {:.2f} s "
        "wall\n",
        r.state_count, r.linear_solver, r.stats.steps, r.wall_seconds);
}

// A report table as the app's Sizing tab reads it (core/display.h: kW and MW, L/min,
// kPa, four figures), for a terminal: the texts longer than kLongText characters (count rules,
// the case that governs; not the model, which names the row) follow the table row by row
// instead of widening every line to ~450 characters, and columns beyond kLineWidth continue in
// a second block that repeats the element column.
void printTable(const Table& t) {
    constexpr std::size_t kLongText = 40, kLineWidth = 150;
    // Display width in characters, not bytes: "°C" and "–" are one column each.
    auto width = [](const std::string& s) {
        std::size_t n = 0;
        for (unsigned char c : s) n += (c & 0xC0) != 0x80;
        return n;
    };
    const display::TableDisplay d(t, display::UnitSystem::SI);
    std::vector<std::size_t> label, shown, notes;
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        const auto& col = t.columns[c];
        const auto* text = std::get_if<std::vector<std::string>>(&col.data);
        std::size_t longest = 0;
        if (text) {
            for (const auto& v : *text) longest = std::max(longest, width(v));
        }
        if (col.name == "hall" || col.name == "element" || col.name == "item") {
            label.push_back(c);
        } else if (text && longest > kLongText && col.name != "model") {
            notes.push_back(c);
        } else {
            shown.push_back(c);
        }
    }
    if (label.empty() && !shown.empty()) {
        label.push_back(shown.front());
        shown.erase(shown.begin());
    }
    // Every cell's text and each column's width.
    std::vector<std::vector<std::string>> cells(t.columns.size());
    std::vector<std::size_t> col_width(t.columns.size(), 0);
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        cells[c].push_back(d.header(t, c));
        for (std::size_t r = 0; r < t.rows(); ++r) cells[c].push_back(d.cell(t, r, c));
        for (const auto& s : cells[c]) col_width[c] = std::max(col_width[c], width(s));
    }
    auto pad = [&](const std::string& s, std::size_t w, bool right) {
        const std::string fill(w > width(s) ? w - width(s) : 0, ' ');
        return right ? fill + s : s + fill;
    };
    std::size_t label_width = 0;
    for (std::size_t c : label) label_width += col_width[c] + 2;
    std::cout << "\n" << t.path << "\n";
    for (std::size_t first = 0; first < shown.size();) {
        std::size_t last = first, line_width = label_width;
        while (last < shown.size() &&
               (last == first || line_width + col_width[shown[last]] + 2 <= kLineWidth)) {
            line_width += col_width[shown[last]] + 2;
            ++last;
        }
        if (first > 0) std::cout << "\n";
        for (std::size_t r = 0; r <= t.rows(); ++r) {
            std::string line;
            for (std::size_t c : label) line += pad(cells[c][r], col_width[c], false) + "  ";
            for (std::size_t i = first; i < last; ++i) {
                const std::size_t c = shown[i];
                const bool number = std::holds_alternative<std::vector<double>>(t.columns[c].data);
                line += pad(cells[c][r], col_width[c], number && r > 0) + "  ";
            }
            while (!line.empty() && line.back() == ' ') line.pop_back();
            std::cout << line << "\n";
        }
        first = last;
    }
    if (notes.empty()) return;
    std::cout << "\n";
    for (std::size_t r = 1; r <= t.rows(); ++r) {
        std::string row;
        for (std::size_t c : label) row += (row.empty() ? "" : " ") + cells[c][r];
        bool first_note = true;
        for (std::size_t c : notes) {
            const std::string& v = cells[c][r];
            if (v.empty() || v == "-") continue;
            std::cout << pad(first_note ? row : std::string(), label_width, false)
                      << display::readableName(t.columns[c].name, "") << ": " << v << "\n";
            first_note = false;
        }
    }
}

/// Runs f; an input error found after reading (a contingency's CDU checked against the sized
/// hall, say) names a place in the scenario ("/events/0/cdu: ...") but not the file, which
/// the reader's own errors do: it is put in front.
/// A model error (a state or a design figure out of the model's range, mostly from sizes a
/// scenario overrides) gets the file in front too: "coolant water: enthalpy requested at
/// 91.00 °C" alone did not say which of several scenarios it came from.
template <class F>
auto inScenarioFile(const std::string& scenario_file, F&& f) {
    try {
        return f();
    } catch (const InputError& e) {
        const std::string what = e.what();
        if (!what.starts_with("/")) throw;
        throw InputError(fmt::format("{}: {}", scenario_file, what));
    } catch (const ModelError& e) {
        const std::string what = e.what();
        if (what.starts_with(scenario_file + ":")) throw;
        throw ModelError(fmt::format("{}: {}", scenario_file, what));
    }
}

}  // namespace

int runCommand(const std::string& scenario_file, const std::optional<std::string>& report,
               const std::optional<std::string>& summary_json,
               const std::optional<std::string>& csv_dir, const Options& options) {
    const facility::ScenarioSpec scenario = loadScenarioFile(scenario_file);
    // Check every destination before a long run, not after it (exit 2 before simulating).
    if (report) checkOutputFile(*report, "report");
    if (summary_json) checkOutputFile(*summary_json, "summary");
    if (csv_dir) checkOutputDirectory(*csv_dir, "CSV report");
    {
        std::error_code ec;
        for (const auto* p : {&report, &summary_json}) {
            if (*p && csv_dir &&
                fs::weakly_canonical(**p, ec) == fs::weakly_canonical(*csv_dir, ec)) {
                throw InputError(fmt::format("'{}' is given as a file and as the CSV folder", **p));
            }
        }
        if (report && summary_json &&
            fs::weakly_canonical(*report, ec) == fs::weakly_canonical(*summary_json, ec)) {
            throw InputError(
                fmt::format("the report and the summary are both '{}'; give two files", *report));
        }
        // `run s.json -o s.json` wrote the report over the scenario it was run from, and
        // `-o w.epw` over the weather file it read (likewise a trace or the job list).
        for (const auto& [p, what] : {std::pair{&report, "report"}, {&summary_json, "summary"}}) {
            if (!*p) continue;
            if (fs::equivalent(**p, scenario_file, ec)) {
                throw InputError(fmt::format(
                    "the {} '{}' would overwrite the scenario it is run from; give another file",
                    what, **p));
            }
            for (const auto& [input, kind] : scenario.inputFiles()) {
                if (fs::equivalent(**p, input, ec)) {
                    throw InputError(fmt::format(
                        "the {} '{}' would overwrite {} the scenario reads ({}); give another file",
                        what, **p, kind, input.string()));
                }
            }
        }
    }
    ProgressPrinter progress(options, scenario.name);
    facility::RunControl control;
    control.progress = [&](double f, double t) { progress(f, t); };
    control.cancel = options.cancel;
    facility::RunOutcome r =
        inScenarioFile(scenario_file, [&] { return facility::runScenario(scenario, control); });
    // One transaction: report, CSV and summary are written to temporaries and renamed together
    // only when all were written; a failure leaves an earlier report intact and no temporary.
    {
        OutputTransaction outputs;
        if (report) outputs.stage(*makeHdf5Writer(), r.report, *report);
        if (csv_dir) outputs.stage(*makeCsvWriter(), r.report, *csv_dir);
        if (summary_json) outputs.stageText(*summary_json, r.summary.dump(2));
        outputs.commit();
    }
    if (!options.quiet) printSummary(scenario, r);
    if (report && !options.quiet) std::cout << "report              " << *report << "\n";
    return 0;
}

int sizeCommand(const std::string& scenario_file, bool as_json, const Options&) {
    const facility::ScenarioSpec scenario = loadScenarioFile(scenario_file);
    facility::RunOutcome r =
        inScenarioFile(scenario_file, [&] { return facility::sizeScenario(scenario); });
    if (as_json) {
        std::cout << r.summary.dump(2) << "\n";
        return 0;
    }
    std::cout << fmt::format("design point of '{}' ({:.3f} s)\n", scenario.name, r.wall_seconds);
    // Key, value and unit, then what the figure is (the report's description), so the block
    // reads without the README; a unit of "1" (a ratio or a count) is left blank.
    for (const auto& m : r.report.summary) {
        const std::string unit = m.unit == "1" ? std::string() : m.unit;
        std::cout << fmt::format("  {:<34} {:>12.6g} {:<5} {}\n", m.name, m.value, unit,
                                 m.description);
    }
    for (const auto& t : r.report.tables) printTable(t);
    return 0;
}

int sweepCommand(const std::string& sweep_file, const std::string& out_dir, int threads,
                 const Options& options) {
    checkInputFile(sweep_file, "sweep");
    facility::SweepPlan plan = facility::loadSweep(sweep_file, options.cancel);
    printWarnings(plan.warnings);
    // Checked before the first case runs: a read-only or misplaced folder is an input error
    // (exit 2), not something found after hours of runs.
    checkOutputDirectory(out_dir, "sweep output folder");
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    if (ec) {
        throw InputError(
            fmt::format("cannot create sweep output directory '{}': {}", out_dir, ec.message()));
    }
    if (parallel::launchedUnderMpi()) {
        // Started by mpirun/srun: the ranks share the cases (every rank parsed and checked the
        // same files above, so a bad input stops them all with exit 2 before MPI starts).
        if (threads > 1) {
            throw InputError(
                "-j applies to a sweep on one machine; under mpirun each rank runs one case at a "
                "time (start more ranks instead)");
        }
        if (!parallel::builtWithMpi()) {
            throw InputError(
                "started under an MPI launcher, but this dctwin was built without MPI "
                "(DCTWIN_MPI=OFF): install Debian's libopenmpi-dev and openmpi-bin and rebuild, "
                "or run the sweep without mpirun (-j THREADS)");
        }
        parallel::MpiSession session;
        const bool root = session.rank() == 0;
        Options rank_options = options;
        rank_options.quiet = options.quiet || !root;  // one progress bar, rank 0's
        ProgressPrinter progress(rank_options, plan.name);
        facility::SweepResult result = facility::runSweepDistributed(
            plan, out_dir, session, [&](double f) { progress(f, 0.0); }, options.cancel);
        if (!root) return 0;
        if (!options.quiet) std::cout << result.table_text;
        if (!result.earlier_note.empty())
            std::cerr << "dctwin: note: " << result.earlier_note << "\n";
        std::cout << fmt::format("{} of {} cases succeeded on {} MPI ranks; results in {}\n",
                                 result.succeeded, result.cases, session.size(), out_dir);
        return result.succeeded == result.cases ? 0 : 1;
    }
    ProgressPrinter progress(options, plan.name);
    facility::SweepResult result = facility::runSweep(
        plan, out_dir, threads, [&](double f) { progress(f, 0.0); }, options.cancel);
    if (!options.quiet) std::cout << result.table_text;
    if (!result.earlier_note.empty()) std::cerr << "dctwin: note: " << result.earlier_note << "\n";
    std::cout << fmt::format("{} of {} cases succeeded; results in {}\n", result.succeeded,
                             result.cases, out_dir);
    return result.succeeded == result.cases ? 0 : 1;
}

int validateCommand(const std::string& scenario_file, const Options& options) {
    checkInputFile(scenario_file, "scenario");
    if (facility::looksLikeSweep(readJsonFile(scenario_file))) {
        // A sweep: every case read (loadSweep does) and sized and built, before a cluster
        // spends hours on it.
        const facility::SweepPlan plan = facility::loadSweep(scenario_file, options.cancel);
        printWarnings(plan.warnings);
        for (const facility::SweepCase& c : plan.cases) {
            if (options.cancel && options.cancel->load()) {
                throw CancelledError("validation cancelled");
            }
            const std::string origin = fmt::format("{}: case '{}'", scenario_file, c.name);
            const facility::ScenarioSpec s =
                facility::parseScenario(c.scenario, plan.base_dir, origin);
            try {
                facility::validateModel(s);
            } catch (const InputError& e) {
                // A fault of the base scenario (a catalog name, say) is named by the base file.
                const std::string base = facility::baseScenarioError(
                    plan, e.what(), scenario_file, c.name,
                    [](const facility::ScenarioSpec& b) { facility::validateModel(b); });
                if (!base.empty()) throw InputError(base);
                throw InputError(fmt::format("{}: {}", origin, e.what()));
            }
        }
        std::cout << fmt::format("{}: valid sweep ('{}', {} case{}{}, each sized and built)\n",
                                 scenario_file, plan.name, plan.cases.size(),
                                 plan.cases.size() == 1 ? "" : "s",
                                 plan.ensemble ? ", ensemble" : "");
        return 0;
    }
    const facility::ScenarioSpec scenario = loadScenarioFile(scenario_file);
    inScenarioFile(scenario_file, [&] { facility::validateModel(scenario); });
    std::cout << fmt::format("{}: valid ('{}', study {})\n", scenario_file, scenario.name,
                             scenario.study.kind);
    return 0;
}

}  // namespace dctwin::cli

namespace dctwin::cli {

int schemaCommand(const std::optional<std::string>& output, bool markdown) {
    const std::string text =
        markdown ? facility::scenarioReference() : facility::scenarioSchema().dump(2);
    if (output) {
        checkOutputFile(*output, "schema");
        OutputTransaction out;
        out.stageText(*output, text);
        out.commit();
    } else {
        std::cout << text << "\n";
    }
    return 0;
}

int traceInspectCommand(const std::string& file, const std::string& format,
                        const std::vector<std::pair<std::string, std::string>>& read,
                        bool as_json) {
    // The options are the trace job's keys: read through its spec, so a value is checked
    // (range, choices) and turned into options as the run does.
    const ObjectSpec& spec = *power::traceReadSpec();
    auto flagOf = [](std::string key) {
        std::replace(key.begin(), key.end(), '_', '-');
        return "--" + key;
    };
    Json keys = Json::object();
    keys["format"] = format;
    for (const auto& [key, text] : read) {
        const KeySpec& k = spec.at(key);
        if (k.type == KeyType::Number || k.type == KeyType::Integer) {
            // A number as JSON writes one (no hex, no "inf"): the scenario's own reading.
            const Json v = Json::parse(text, nullptr, false);
            if (!v.is_number()) {
                throw cli::UsageError(
                    fmt::format("{} expects {}, got '{}'", flagOf(key),
                                k.type == KeyType::Integer ? "a whole number" : "a number", text));
            }
            keys[key] = v;
        } else {
            keys[key] = text;
        }
    }
    power::TraceReadOptions o;
    try {
        o = power::traceReadOptions(SpecReader(JsonView(keys, "trace inspect options"), spec));
    } catch (const InputError& e) {
        // "trace inspect options/interval_s: ..." reads as the option typed: "--interval-s: ...".
        std::string m = e.what();
        const std::string prefix = "trace inspect options/";
        if (m.rfind(prefix, 0) == 0) {
            const std::size_t end = m.find(':', prefix.size());
            m = flagOf(m.substr(prefix.size(), end - prefix.size())) + m.substr(end);
        }
        throw cli::UsageError(m);
    }
    const Json j = power::inspectTrace(power::readTrace(file, o));
    std::cout << (as_json ? j.dump(2) + "\n" : power::inspectionText(j));
    return 0;
}

}  // namespace dctwin::cli
