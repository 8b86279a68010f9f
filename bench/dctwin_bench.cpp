// dctwin-bench: measures the performance cases of DESIGN.md §6 against their budgets (eight:
// the seven budgets and the base of the 2x band).
//
//   dctwin-bench [--case N] [--quick] [--repeat N] [--json FILE] [--help]
//
// Each case runs in its own child process so that its peak memory is its own and a crash in
// one case does not take the others with it; the child sends its measurements back through a
// pipe. The benchmark only measures: a case over budget is reported as OVER, never hidden and
// never turned into a failure (exit 0 if every case ran, 1 if one failed, 2 on bad usage).
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/data_dir.h"
#include "core/json.h"
#include "core/system.h"
#include "dctwin/version.h"
#include "facility/model.h"
#include "facility/scenario.h"
#include "facility/sizing.h"
#include "facility/study.h"
#include "facility/twin.h"

namespace {

using namespace dctwin;
using Clock = std::chrono::steady_clock;

constexpr const char* kUsage = R"(dctwin-bench — the performance cases of DESIGN.md §6

Usage:
  dctwin-bench [--case N] [--quick] [--repeat N] [--json FILE]
  dctwin-bench --rhs [--case N] [--json FILE]
  dctwin-bench --help

  --case N     run only case N (1..8); default: every case but 7
  --quick      shortened cases for a smoke test (annual: 7 days, transient: 60 s); their
               figures are not comparable with the budgets
  --repeat N   run each integrating case N times (1..100), each in its own process, and judge
               its median wall time against the budget; the table shows the median run and a
               line per case gives the best, median and worst. On a shared VM one run moves
               by +-20 % from the next (the wall time, not the work), so a verdict on a
               single run is a coin toss near the budget
  --json FILE  also write the results as JSON
  --rhs        build each integrating case's study model and time its right-hand side alone
               (every output and derivative near the study's initial state, each evaluation
               at its own state, a new time every third evaluation as in a step's Newton
               iterations; best of 5 batches): the cost per rack of one evaluation, free of
               the step count and of the integrator

Cases (scenarios from the source tree's scenarios/ folder):
  1  design-point sizing, 64 racks           azure_gb300_64.json (median of 5)  < 50 ms
  2  annual, 64 racks, 10-min output          azure_gb300_64.json                < 0.5 s
  3  annual, 1,390 racks, 60-min output       campus_100k.json                   < 5 s, < 4 GB
  4  transient, 64 racks, 1 h at 0.1 s        transient_training_swings.json     < 3 s
  5  annual, 1,390 distinct racks, 60-min     campus_100k.json, one job per rack < 30 s, < 4 GB
  6  annual, 5,560 distinct racks, 60-min     campus_100k.json, one job per rack < 120 s, < 4 GB
  7  transient, 1,390 distinct racks, 1 h     campus_100k.json, one job per rack < 120 s
     at 0.1 s, desynchronised starts
  8  annual, 64 distinct racks, 60-min        campus_100k.json, one job per rack base of the
                                                                                 2x band

Case 7 runs only with --case 7: it takes hours (its first 60 s took 81-230 s on this
project's machines) because the power-smoothing controllers of 1,390 desynchronised racks
turn their corners at different moments and hold one global step near 2 ms, with a restart
at every square-wave edge.

Cases 5-7 give every rack its own job (issue 12): a mix of training runs (iteration periods
0.8-3.4 s, checkpoints every 1-6 h, staggered starts) and inference services (peak 55-95 %),
so no two racks lump together; they print the cost per rack-year. Issue 12 asks that cost to
stay within a factor of 2 from 64 (case 8) to 5,560 distinct racks; the last line compares the
annual distinct cases that ran.

Exit status: 0 all cases ran (over-budget cases are reported, not failed), 1 a case failed,
2 bad usage.
)";

struct CaseSpec {
    int id;
    const char* name;
    const char* scenario;  // file in scenarios/
    bool sizing;           // sizeScenario (median of repeats) instead of runScenario
    double budget_s;       // [s] wall
    double budget_mb;      // [MB] peak memory; 0 = no memory budget
    const char* budget_text;
    int distinct_racks = 0;  // > 0: every rack its own job (see distinctRacks)
    bool transient = false;  // with distinct_racks: a resolved 1 h at 0.1 s instead of a year
    bool opt_in = false;     // run only when asked for with --case (hours long)
};

// DESIGN.md §6. The budgets are for one core of this machine.
const std::vector<CaseSpec> kCases = {
    {1, "sizing, 64 racks", "azure_gb300_64.json", true, 0.050, 0.0, "< 50 ms"},
    {2, "annual, 64 racks", "azure_gb300_64.json", false, 0.5, 0.0, "< 0.5 s"},
    {3, "annual, 1,390 racks", "campus_100k.json", false, 5.0, 4096.0, "< 5 s, < 4 GB"},
    {4, "transient, 64 racks", "transient_training_swings.json", false, 3.0, 0.0, "< 3 s"},
    {5, "annual, 1,390 distinct", "campus_100k.json", false, 30.0, 4096.0, "< 30 s, < 4 GB", 1390},
    {6, "annual, 5,560 distinct", "campus_100k.json", false, 120.0, 4096.0, "< 120 s, < 4 GB",
     5560},
    {7, "transient, 1,390 dist.", "campus_100k.json", false, 120.0, 4096.0, "< 120 s", 1390, true,
     true},
    {8, "annual, 64 distinct", "campus_100k.json", false, 0.0, 0.0, "2x band base", 64},
};

constexpr int kSizingRepeats = 5;

struct Options {
    std::optional<int> only_case;
    bool quick = false;
    bool rhs = false;  // time the model's right-hand side alone instead of the study
    int repeat = 1;    // runs of each integrating case, each in its own process
    std::optional<std::string> json_file;
};

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The whole number `v` spells, or 0 when it spells none ("3x", "", "1e2").
int wholeNumber(const std::string& v) {
    try {
        std::size_t used = 0;
        const int n = std::stoi(v, &used);
        return used == v.size() ? n : 0;
    } catch (const std::exception&) {
        return 0;
    }
}

Options parseArgs(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string s = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw UsageError(fmt::format("option {} needs a value", s));
            return argv[++i];
        };
        if (s == "--case") {
            const std::string v = value();
            const int n = wholeNumber(v);
            if (n < 1 || n > static_cast<int>(kCases.size())) {
                throw UsageError(fmt::format("--case expects 1..{}, got '{}'", kCases.size(), v));
            }
            o.only_case = n;
        } else if (s == "--quick") {
            o.quick = true;
        } else if (s == "--rhs") {
            o.rhs = true;
        } else if (s == "--repeat") {
            const std::string v = value();
            const int n = wholeNumber(v);
            if (n < 1 || n > 100) {
                throw UsageError(
                    fmt::format("--repeat expects a whole number 1..100, got '{}'", v));
            }
            o.repeat = n;
        } else if (s == "--json") {
            o.json_file = value();
        } else {
            throw UsageError(fmt::format("unknown argument '{}'", s));
        }
    }
    if (o.rhs && o.repeat > 1) {
        throw UsageError(
            "--repeat times the study runs; --rhs already takes the best of 5 batches");
    }
    return o;
}

// ---------------------------------------------------------------------------------------------
// Child side: load, run, measure.

std::filesystem::path scenarioPath(const CaseSpec& c) { return scenariosDir() / c.scenario; }

/// A campus whose racks all differ: rack k runs job k, alternately a training run and an
/// inference service, their parameters stepped through co-prime cycles so that no two racks
/// share a load (the lumping merges only racks of one job). Deterministic, so two runs of a
/// case measure the same model.
void giveEveryRackItsOwnJob(Json& input, int racks, bool transient) {
    input["it"]["racks"] = Json::array({Json{{"model", "gb300_nvl72"}, {"count", racks}}});
    Json jobs = Json::array();
    int training = 0;
    for (int k = 0; k < racks; ++k) {
        const bool train = k % 5 < 3;  // 60 % research training, 40 % product inference
        Json j{{"name", fmt::format("job{}", k)}, {"racks", 1}};
        if (train) {
            ++training;
            j["type"] = "training";
            j["tenant"] = "research";
            j["iteration_period_s"] = 0.8 + 0.2 * (k % 13);
            j["compute_fraction"] = 0.55 + 0.05 * (k % 7);
            j["compute_util_pct"] = 85 + k % 16;
            j["comm_util_pct"] = 30 + 5 * (k % 11);
            j["checkpoint_interval_h"] = 1 + k % 6;
            j["checkpoint_duration_s"] = 60 + 15 * (k % 5);
            j["checkpoint_util_pct"] = 10;
            j["start_ramp_s"] = 60;
            j["duration_h"] = 8760;
            // Desynchronised: training starts spread over the first minutes (transient) or
            // the first day (annual), as a scheduler would place them.
            j["start_h"] = transient ? (k % 97) * (2.0 / 3600.0) : (k % 23) * 1.0;
        } else {
            j["type"] = "inference";
            j["tenant"] = "product";
            j["peak_util_pct"] = 55 + (k * 7) % 41;
            j["peak_to_trough"] = 1.4 + 0.1 * (k % 9);
            j["start_h"] = 0;
        }
        jobs.push_back(std::move(j));
    }
    input["workload"]["jobs"] = std::move(jobs);
    input["workload"]["tenants"] = {{"research", double(training) / racks},
                                    {"product", 1.0 - double(training) / racks}};
    if (transient) {
        input["study"] = {{"kind", "transient"},
                          {"start", "07-15"},
                          {"duration_s", 3600.0},
                          {"output_interval_s", 0.1}};
    }
}

// The quick variants change the study length in the input JSON and re-parse it, so the model
// builder sees exactly what a scenario file with that length would give it.
facility::ScenarioSpec loadCase(const CaseSpec& c, bool quick) {
    facility::ScenarioSpec sc = facility::loadScenario(scenarioPath(c));
    if (c.distinct_racks > 0) {
        Json input = sc.input;
        giveEveryRackItsOwnJob(input, c.distinct_racks, c.transient);
        facility::ScenarioSpec d = facility::parseScenario(
            input, sc.base_dir,
            fmt::format("{} ({} distinct racks)", sc.file.string(), c.distinct_racks));
        d.file = sc.file;
        sc = std::move(d);
    }
    if (!quick || c.sizing) return sc;
    Json input = sc.input;
    Json& study = input["study"];
    for (const char* key :
         {"days", "hours", "duration_s", "duration_min", "duration_h", "duration_days"}) {
        study.erase(key);
    }
    if (sc.study.kind == "transient") {
        study["duration_s"] = 60.0;
    } else {
        study["days"] = 7;
    }
    facility::ScenarioSpec q =
        facility::parseScenario(input, sc.base_dir, sc.file.string() + " (quick)");
    q.file = sc.file;
    return q;
}

// CPU time next to wall time shows when a measurement was disturbed by other load on the
// machine (wall well above CPU), which the budgets (one core) do not account for.
double cpuSeconds() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    auto sec = [](const timeval& t) { return t.tv_sec + 1e-6 * t.tv_usec; };
    return sec(ru.ru_utime) + sec(ru.ru_stime);
}

double peakRssMb() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_maxrss) / 1024.0;  // Linux reports kB
}

Json runCaseInChild(const CaseSpec& c, bool quick) {
    Json r;
    r["case"] = c.id;
    try {
        const facility::ScenarioSpec sc = loadCase(c, quick);
        facility::RunOutcome out;
        double wall = 0.0;
        if (c.sizing) {
            // A single sizing run is too short to time reliably; the median of a few repeats
            // is robust against the first run's cold caches and scheduler noise.
            std::vector<double> walls;
            const double cpu0 = cpuSeconds();
            for (int i = 0; i < kSizingRepeats; ++i) {
                const auto t0 = Clock::now();
                out = facility::sizeScenario(sc);
                walls.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
            }
            r["wall_samples_s"] = walls;
            r["cpu_s"] = (cpuSeconds() - cpu0) / kSizingRepeats;
            std::sort(walls.begin(), walls.end());
            wall = walls[walls.size() / 2];
            r["repeats"] = kSizingRepeats;
            r["sim_s"] = 0.0;
        } else {
            // Long cases report progress at most every 10 s so a slow run is visibly alive
            // without flooding the terminal.
            facility::RunControl control;
            const auto t0 = Clock::now();
            auto last = t0;
            const double cpu0 = cpuSeconds();
            control.progress = [&](double fraction, double) {
                const auto now = Clock::now();
                if (now - last < std::chrono::seconds(10)) return;
                last = now;
                fmt::print(stderr, "  case {}: {:5.1f} % after {:.0f} s\n", c.id, 100.0 * fraction,
                           std::chrono::duration<double>(now - t0).count());
            };
            out = facility::runScenario(sc, control);
            wall = std::chrono::duration<double>(Clock::now() - t0).count();
            r["cpu_s"] = cpuSeconds() - cpu0;
            r["repeats"] = 1;
            r["sim_s"] = sc.study.duration_s;
        }
        r["ok"] = true;
        r["wall_s"] = wall;
        r["states"] = out.state_count;
        r["linear_solver"] = out.linear_solver;
        r["steps"] = out.stats.steps;
        r["rhs_evals"] = out.stats.rhs_evals;
        r["jacobian_evals"] = out.stats.jacobian_evals;
        r["factorizations"] = out.stats.factorizations;
        r["error_test_failures"] = out.stats.error_test_failures;
        r["convergence_failures"] = out.stats.convergence_failures;
        r["jacobian_colours"] = out.stats.jacobian_colours;
        r["quadratures"] = out.stats.quadratures;
        r["quadratures_reused"] = out.stats.quadratures_reused;
        r["racks"] = sc.it.totalRacks();
    } catch (const std::exception& e) {
        r["ok"] = false;
        r["error"] = e.what();
    }
    r["peak_mb"] = peakRssMb();
    return r;
}

// The study model's right-hand side alone (--rhs): what one evaluation costs per rack, which
// must stay flat from 64 to 5,560 distinct racks for the cost to be linear (issue 12), measured
// apart from the step count and the integrator's own work.
Json timeRhsInChild(const CaseSpec& c) {
    Json r;
    r["case"] = c.id;
    try {
        const facility::ScenarioSpec sc = loadCase(c, false);
        const facility::SiteSizing z = facility::sizeSite(sc);
        const facility::DesignPoint d = facility::designPoint(sc, z);
        const facility::PreparedStudy ps = facility::prepareStudy(sc, z, d);
        const facility::SiteModel m(sc, z, ps.conditions);
        const System& sys = m.system();
        System::Workspace ws = sys.makeWorkspace();
        std::vector<double> dx(sys.stateCount());
        // A new time every third evaluation: the sources (a workload per rack) are computed
        // once per time, as in a step whose Newton iterations and quadrature share one t.
        // Every evaluation at a state of its own, every entry moved by a relative 1e-9 or so
        // as by a Newton correction: what the model remembers from one evaluation (enthalpies,
        // film resistances) must not make a repeated state look cheaper than a step's.
        std::vector<std::vector<double>> states(7, ps.x0);
        for (std::size_t j = 0; j < states.size(); ++j) {
            for (double& v : states[j]) v *= 1.0 + 1e-9 * static_cast<double>(j + 1);
        }
        long k = 0;
        auto batch = [&](long n) {
            const auto t0 = Clock::now();
            for (long i = 0; i < n; ++i, ++k) {
                sys.evaluate(3600.0 + 60.0 * static_cast<double>(k / 3),
                             states[static_cast<std::size_t>(k) % states.size()], dx, ws);
            }
            return std::chrono::duration<double>(Clock::now() - t0).count();
        };
        const double one = std::max(batch(3) / 3.0, 1e-7);
        const long n = std::max(30L, static_cast<long>(0.5 / one));
        double best = std::numeric_limits<double>::infinity();
        for (int b = 0; b < 5; ++b) best = std::min(best, batch(n) / static_cast<double>(n));
        r["ok"] = true;
        r["rhs_us"] = 1e6 * best;
        r["rhs_ns_per_rack"] = 1e9 * best / sc.it.totalRacks();
        r["rhs_batch"] = n;
        r["racks"] = sc.it.totalRacks();
        r["states"] = sys.stateCount();
        r["components"] = sys.componentCount();
        r["wall_s"] = 0.0;
    } catch (const std::exception& e) {
        r["ok"] = false;
        r["error"] = e.what();
    }
    r["peak_mb"] = peakRssMb();
    return r;
}

void writeAll(int fd, const std::string& s) {
    std::size_t done = 0;
    while (done < s.size()) {
        const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += static_cast<std::size_t>(n);
    }
}

// ---------------------------------------------------------------------------------------------
// Parent side: fork, collect, report.

Json runCase(const CaseSpec& c, bool quick, bool rhs) {
    int fds[2];
    if (::pipe(fds) != 0) {
        return Json{{"case", c.id}, {"ok", false}, {"error", std::strerror(errno)}};
    }
    // Unflushed output would be duplicated by the child's copy of the buffers.
    std::fflush(stdout);
    std::fflush(stderr);
    std::cout.flush();
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return Json{{"case", c.id}, {"ok", false}, {"error", std::strerror(errno)}};
    }
    if (pid == 0) {
        ::close(fds[0]);
        const Json r = rhs ? timeRhsInChild(c) : runCaseInChild(c, quick);
        writeAll(fds[1], r.dump());
        ::close(fds[1]);
        std::fflush(stderr);
        ::_exit(0);  // no atexit handlers or static destructors of the parent's copy
    }
    ::close(fds[1]);
    // Read to EOF before waiting, so a child never blocks on a full pipe.
    std::string text;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    Json r;
    try {
        r = Json::parse(text);
    } catch (const std::exception&) {
        std::string why = "the child process sent no result";
        if (WIFSIGNALED(status)) {
            why += fmt::format(" (killed by signal {}: {})", WTERMSIG(status),
                               strsignal(WTERMSIG(status)));
        } else if (WIFEXITED(status)) {
            why += fmt::format(" (exit status {})", WEXITSTATUS(status));
        }
        r = Json{{"case", c.id}, {"ok", false}, {"error", why}};
    }
    return r;
}

/// Case `c` run `repeat` times, each in its own process (an integrating case; a sizing case
/// takes its own median in one process). The result is the run with the median wall time,
/// its wall time the median of all (the mean of the middle two for an even count), with every
/// run's wall time, the best and the worst beside it, and the largest peak memory of any run.
/// The first run that fails is the result.
Json runRepeated(const CaseSpec& c, bool quick, int repeat) {
    if (repeat <= 1 || c.sizing) return runCase(c, quick, false);
    std::vector<Json> runs;
    for (int i = 0; i < repeat; ++i) {
        fmt::print(stderr, "case {}: run {} of {}\n", c.id, i + 1, repeat);
        std::fflush(stderr);
        Json r = runCase(c, quick, false);
        if (!r.value("ok", false)) return r;
        runs.push_back(std::move(r));
    }
    std::vector<double> walls;
    std::vector<long> steps;
    double peak = 0.0;
    for (const Json& r : runs) {
        walls.push_back(r["wall_s"].get<double>());
        steps.push_back(r["steps"].get<long>());
        peak = std::max(peak, r["peak_mb"].get<double>());
    }
    std::vector<double> sorted = walls;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    const double median = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    // The run whose figures the table shows: the lower middle one.
    const auto mid = std::find(walls.begin(), walls.end(), sorted[(n - 1) / 2]) - walls.begin();
    Json out = runs[static_cast<std::size_t>(mid)];
    out["wall_s"] = median;
    out["repeats"] = repeat;
    out["wall_samples_s"] = walls;
    out["wall_best_s"] = sorted.front();
    out["wall_worst_s"] = sorted.back();
    out["peak_mb"] = peak;
    // The same model and solver take the same steps every time; a difference would mean the
    // runs did not measure the same work.
    out["steps_by_repeat"] = steps;
    out["steps_agree"] =
        std::adjacent_find(steps.begin(), steps.end(), std::not_equal_to<>()) == steps.end();
    return out;
}

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                std::string m = line.substr(colon + 1);
                m.erase(0, m.find_first_not_of(" \t"));
                return m;
            }
        }
    }
    return "unknown";
}

std::string gitCommit() {
    const std::string c = kGitCommit;
    return c.empty() ? "unknown" : c;
}

// Fills in the derived figures and the verdict; "quick" results are never judged.
void evaluate(const CaseSpec& c, Json& r, bool quick) {
    r["name"] = c.name;
    r["scenario"] = std::string("scenarios/") + c.scenario;
    r["budget"] = c.budget_text;
    r["budget_wall_s"] = c.budget_s;
    if (c.budget_mb > 0.0) r["budget_peak_mb"] = c.budget_mb;
    const bool shortened = quick && !c.sizing;
    r["comparable_with_budget"] = !shortened;
    if (!r.value("ok", false)) {
        r["result"] = "FAILED";
        return;
    }
    const double wall = r["wall_s"].get<double>();
    const double sim_s = r.value("sim_s", 0.0);
    if (sim_s > 0.0) {
        const double sim_h = sim_s / 3600.0;
        r["sim_per_wall"] = wall > 0.0 ? sim_s / wall : 0.0;
        r["rhs_evals_per_sim_h"] = r["rhs_evals"].get<double>() / sim_h;
        // Cost per rack-year: constant when the cost is linear in racks (issue 12).
        const double rack_years = r.value("racks", 0) * sim_s / (365.0 * 86400.0);
        if (rack_years > 0.0) r["wall_ms_per_rack_year"] = 1e3 * wall / rack_years;
        r["factorizations_per_sim_h"] = r["factorizations"].get<double>() / sim_h;
    }
    if (shortened) {
        r["result"] = "quick";
        return;
    }
    if (c.budget_s <= 0.0) {  // a reference for other cases (case 8), no budget of its own
        r["result"] = "measured";
        return;
    }
    const bool time_ok = wall < c.budget_s;
    const bool mem_ok = c.budget_mb <= 0.0 || r["peak_mb"].get<double>() < c.budget_mb;
    r["result"] = time_ok && mem_ok ? "PASS" : "OVER";
}

// Table figures span 1e-2 to 1e7; exponents are hard to compare down a column, so large
// values are printed as whole numbers and small ones with four significant digits.
std::string number(double v) {
    return std::abs(v) >= 1000.0 ? fmt::format("{:.0f}", v) : fmt::format("{:.4g}", v);
}

std::string fieldOr(const Json& r, const char* key) {
    return r.contains(key) ? number(r[key].get<double>()) : "-";
}

void printTable(const std::vector<Json>& results) {
    constexpr const char* row =
        "{:<22} {:>9} {:>8} {:>10} {:>6} {:<13} {:>9} {:>11} {:>10} {:>8}  {:<15} {}\n";
    fmt::print(row, "case", "wall [s]", "cpu [s]", "sim/wall", "states", "linear solver", "steps",
               "RHS/sim h", "fact/sim h", "peak MB", "budget", "result");
    fmt::print("{}\n", std::string(134, '-'));
    for (const Json& r : results) {
        const std::string name =
            fmt::format("{} {}", r["case"].get<int>(), r.value("name", std::string()));
        const std::string mb =
            r.contains("peak_mb") ? fmt::format("{:.0f}", r["peak_mb"].get<double>()) : "-";
        if (!r.value("ok", false)) {
            fmt::print(row, name, "-", "-", "-", "-", "-", "-", "-", "-", mb,
                       r.value("budget", std::string()), "FAILED");
            continue;
        }
        std::string wall = fmt::format("{:.4g}", r["wall_s"].get<double>());
        if (r.value("repeats", 1) > 1) wall += "*";
        // The sizing study is a steady-state solve: it integrates nothing, so "0 states" and an
        // empty solver name would read as a fault; show them as not applicable.
        const auto states = r["states"].get<std::size_t>();
        const auto solver = r["linear_solver"].get<std::string>();
        fmt::print(row, name, wall, fieldOr(r, "cpu_s"), fieldOr(r, "sim_per_wall"),
                   states > 0 ? std::to_string(states) : "-", solver.empty() ? "-" : solver,
                   r["steps"].get<long>(), fieldOr(r, "rhs_evals_per_sim_h"),
                   fieldOr(r, "factorizations_per_sim_h"), mb, r["budget"].get<std::string>(),
                   r["result"].get<std::string>());
    }
}

bool writeJson(const Options& o, const std::vector<Json>& results, long nproc,
               const std::string& cpu) {
    if (!o.json_file) return true;
    Json doc;
    doc["program"] = "dctwin-bench";
    doc["version"] = kVersion;
    doc["git_commit"] = gitCommit();
    doc["machine"] = {{"nproc", nproc}, {"cpu_model", cpu}};
    doc["quick"] = o.quick;
    doc["rhs_only"] = o.rhs;
    doc["cases"] = results;
    std::ofstream out(*o.json_file);
    out << doc.dump(2) << "\n";
    if (!out) {
        fmt::print(stderr, "dctwin-bench: cannot write {}\n", *o.json_file);
        return false;
    }
    return true;
}

int run(const Options& o) {
    const long nproc = ::sysconf(_SC_NPROCESSORS_ONLN);
    const std::string cpu = cpuModel();
    fmt::print("dctwin-bench {} (commit {}){}\n", kVersion, gitCommit(),
               o.quick ? " — QUICK: shortened cases, not comparable with the budgets" : "");
    fmt::print("machine: {} CPUs online, {}\n", nproc, cpu);
    fmt::print("budgets: DESIGN.md §6, one core of this machine; each case in its own process\n");
    fmt::print("\n");
    std::fflush(stdout);

    std::vector<Json> results;
    bool failed = false;
    for (const CaseSpec& c : kCases) {
        if (o.only_case && *o.only_case != c.id) continue;
        if (!o.only_case && c.opt_in) {
            fmt::print("case {} ({}) not run: only with --case {} (see --help)\n", c.id, c.name,
                       c.id);
            continue;
        }
        if (o.rhs) {
            if (c.sizing) continue;  // a steady solve: no study model to time
            fmt::print(stderr, "case {} ({}): timing the right-hand side\n", c.id, c.name);
            std::fflush(stderr);
            Json r = runCase(c, false, true);
            r["name"] = c.name;
            if (r.value("ok", false)) {
                fmt::print(
                    "case {} {:<24} {:>6} racks {:>7} states {:>6} components: {:9.1f} us per "
                    "RHS, {:6.1f} ns per rack (best of 5 x {})\n",
                    c.id, c.name, r["racks"].get<int>(), r["states"].get<std::size_t>(),
                    r["components"].get<std::size_t>(), r["rhs_us"].get<double>(),
                    r["rhs_ns_per_rack"].get<double>(), r["rhs_batch"].get<long>());
            } else {
                failed = true;
                fmt::print("case {} {}: FAILED: {}\n", c.id, c.name,
                           r.value("error", std::string()));
            }
            std::fflush(stdout);
            results.push_back(std::move(r));
            continue;
        }
        std::string what = c.scenario;
        if (o.quick && !c.sizing) {
            what += std::string(", quick: ") +
                    (c.transient || std::string(c.scenario).find("transient") != std::string::npos
                         ? "60 s"
                         : "7 days");
        }
        fmt::print(stderr, "case {} ({}, {}): started\n", c.id, c.name, what);
        std::fflush(stderr);
        Json r = runRepeated(c, o.quick, o.repeat);
        evaluate(c, r, o.quick);
        if (r.value("ok", false)) {
            fmt::print(stderr, "case {}: done in {:.3g} s, peak {:.0f} MB, {}\n", c.id,
                       r["wall_s"].get<double>(), r["peak_mb"].get<double>(),
                       r["result"].get<std::string>());
        } else {
            failed = true;
            fmt::print(stderr, "case {}: FAILED: {}\n", c.id, r.value("error", std::string()));
        }
        std::fflush(stderr);
        results.push_back(std::move(r));
    }

    if (o.rhs) return writeJson(o, results, nproc, cpu) && !failed ? 0 : 1;
    printTable(results);
    fmt::print("\n");
    for (const Json& r : results) {
        if (!r.contains("wall_ms_per_rack_year")) continue;
        fmt::print(
            "case {}: {} racks, {} Jacobian colours, {} quadratures: {:.1f} ms wall per "
            "rack-year\n",
            r["case"].get<int>(), r.value("racks", 0), r.value("jacobian_colours", 0L),
            r.value("quadratures", 0L), r["wall_ms_per_rack_year"].get<double>());
    }
    // Issue 12: the cost per rack-year of distinct racks within 2x from 64 to 5,560 racks.
    double lo = 0.0, hi = 0.0;
    std::string which;
    for (const Json& r : results) {
        const CaseSpec& c = kCases[static_cast<std::size_t>(r["case"].get<int>() - 1)];
        if (c.distinct_racks == 0 || c.transient || !r.contains("wall_ms_per_rack_year") ||
            !r.value("comparable_with_budget", false)) {
            continue;
        }
        const double v = r["wall_ms_per_rack_year"].get<double>();
        lo = lo > 0.0 ? std::min(lo, v) : v;
        hi = std::max(hi, v);
        which += fmt::format("{}{}", which.empty() ? "" : ", ", c.distinct_racks);
    }
    if (lo > 0.0 && which.find(',') != std::string::npos) {
        fmt::print("distinct racks ({}): cost per rack-year varies {:.2f}x (issue 12: within 2x)\n",
                   which, hi / lo);
    }
    for (const Json& r : results) {
        if (!r.contains("wall_samples_s") || !r.contains("wall_best_s")) continue;
        fmt::print(
            "case {}: {} runs, each in its own process: wall best {:.4g} s, median {:.4g} s, "
            "worst {:.4g} s{}\n",
            r["case"].get<int>(), r["repeats"].get<int>(), r["wall_best_s"].get<double>(),
            r["wall_s"].get<double>(), r["wall_worst_s"].get<double>(),
            r.value("steps_agree", true) ? "" : " (WARNING: the runs took different steps)");
    }
    if (!o.only_case || *o.only_case == 1) {
        fmt::print("* median of {} repeats; cpu [s] is their mean.\n", kSizingRepeats);
    }
    if (o.repeat > 1) {
        fmt::print(
            "* for the integrating cases: the median of --repeat {} runs; cpu [s] and the other "
            "columns are the median run's.\n",
            o.repeat);
    }
    fmt::print(
        "RHS evaluations include those spent on Jacobians; per simulated hour = over the "
        "study's duration. Budgets apply to wall time; cpu well below wall means other load "
        "on the machine.\n");
    if (o.quick) {
        fmt::print(
            "QUICK run: every case but 1 shortened (7 days / 60 s); result 'quick' = not judged "
            "against the budgets.\n");
    }
    for (const Json& r : results) {
        if (!r.value("ok", false)) {
            fmt::print("case {} failed: {}\n", r["case"].get<int>(),
                       r.value("error", std::string()));
        }
    }

    if (!writeJson(o, results, nproc, cpu)) return 1;
    return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string s = argv[i];
            if (s == "--help" || s == "-h") {
                fmt::print("{}", kUsage);
                return 0;
            }
        }
        o = parseArgs(argc, argv);
    } catch (const UsageError& e) {
        fmt::print(stderr, "dctwin-bench: {}\nRun 'dctwin-bench --help' for usage.\n", e.what());
        return 2;
    }
    try {
        return run(o);
    } catch (const std::exception& e) {
        fmt::print(stderr, "dctwin-bench: {}\n", e.what());
        return 1;
    }
}
