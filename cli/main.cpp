// dctwin: the headless front end (DESIGN.md §5.2).
//
//   dctwin run SCENARIO.json [-o REPORT.h5] [--summary-json FILE] [--csv DIR] [--quiet]
//   dctwin size SCENARIO.json [--json]
//   dctwin sweep SWEEP.json [-j THREADS] [-o DIR] [--quiet]
//   dctwin validate SCENARIO.json | SWEEP.json
//   dctwin schema [--markdown] [-o FILE]
//   dctwin trace inspect FILE [--format F] [reading options: --fields, --interval-s, ...] [--json]
//   dctwin --help | --version
//
// Exit status: 0 success, 1 the simulation failed, 2 bad input or usage. Progress goes to
// stderr (a bar with ETA on a terminal, plain lines otherwise, nothing with --quiet); results
// to stdout or files.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "core/errors.h"
#include "core/json.h"
#include "dctwin/version.h"

namespace {

using namespace dctwin;

constexpr const char* kUsage = R"(dctwin — digital twin of a liquid-cooled GB300 NVL72 datacenter

Usage:
  dctwin run SCENARIO.json [-o REPORT.h5] [--summary-json FILE] [--csv DIR] [--quiet]
      Build the coupled model and run the scenario's study; print the summary.
  dctwin size SCENARIO.json [--json]
      Design-point sizing (power, cooling, water tables) at peak IT and design weather.
  dctwin sweep SWEEP.json [-j THREADS] [-o DIR] [--quiet]
      Run the variants of a base scenario described in SWEEP.json on several threads, or
      across machines as `mpirun -n N dctwin sweep SWEEP.json -o DIR` (MPI builds). Writes
      one summary per case, sweep_summary.csv/.json/.h5 and, for an ensemble, the P10/P50/P90
      of every metric in sweep_percentiles.csv.
  dctwin validate SCENARIO.json | SWEEP.json
      Read and check a scenario without running it (sized and built); of a sweep, every case.
  dctwin schema [--markdown] [-o FILE]
      Write the JSON Schema of scenario files, or with --markdown the scenario reference,
      both generated from the scenario specs.
  dctwin trace inspect FILE [--format F] [--fields LIST] [--interval-s S] [--utc-offset-h H] [--time-unit U] [--time-column NAME] [--group-column NAME] [--gpus N] [--json]
      Read a GPU telemetry log (nvidia-smi CSV, dcgmi dmon, dcgm-exporter scrapes, delimited
      text, Cornell) and print its format, columns, devices, sampling, gaps and power
      statistics (swing, largest 1 s change, dominant period). F: auto (default), nvidia_smi,
      dcgm_dmon, dcgm_prometheus, delimited, csv, cornell. The other options say how to read
      the log, as the trace job's keys of the same names do (fields, interval_s,
      utc_offset_h, time_unit ms|s|min|h, time_column, group_column, gpus): --fields for
      nvidia-smi logs without a header, --interval-s for dcgmi dmon.
  dctwin --help | --version

A report's printable PDF (summary, sizing tables, charts, one-line diagram), no display
needed: dctwin-gui REPORT.h5 --pdf OUT.pdf (built with the app, GUI=ON).

An option's value may follow it or be attached: -j 2, -j2, --threads=2, -o DIR, --output=DIR.
An option with a value is given once; a value spelled as an option (-o --quiet) is refused.

Exit status: 0 success, 1 the simulation failed (sweep: a case failed, after the others
ran), 2 bad input or usage.
)";

/// The usage text of one command (its block of kUsage), or all of it for an unknown one.
std::string commandUsage(const std::string& command) {
    std::istringstream in(kUsage);
    std::string line, block;
    bool inside = false;
    const std::string start = "  dctwin " + command + " ";
    while (std::getline(in, line)) {
        if (line.rfind("  dctwin ", 0) == 0) inside = line.rfind(start, 0) == 0;
        if (inside) block += line + "\n";
    }
    if (block.empty()) return kUsage;
    return "Usage:\n" + block +
           "\nExit status: 0 success, 1 the simulation failed, 2 bad input or usage.\n";
}

[[noreturn]] void usageError(const std::string& message) {
    throw cli::UsageError(message + "\nRun 'dctwin --help' for usage.");
}

struct Args {
    std::string command;
    std::vector<std::string> positional;
    std::optional<std::string> output, summary_json, csv_dir, format;
    int threads = 0;
    bool quiet = false, json = false, markdown = false;
    std::vector<std::string> given;  // the options as typed (value split off), in order
    /// trace inspect: how to read the log, by the trace job's key (power::traceReadSpec).
    std::vector<std::pair<std::string, std::string>> trace_read;
};

/// The commands, in the order --help gives them.
const std::array<const char*, 6> kCommands = {"run",      "size",   "sweep",
                                              "validate", "schema", "trace"};

/// One option of the command line. The parser, the split of attached values (`-j2`,
/// `--output=DIR`) and the check of which command reads which option all read this one table;
/// they were three lists that had to be kept in step by hand.
struct Option {
    const char* name;        // long spelling
    const char* short_name;  // single-dash spelling, or nullptr
    bool takes_value;
    const char* value_name;  // what the value is, for "-o expects a file name" ("" for flags)
    std::vector<std::string> commands;  // the commands that read it
    void (*store)(Args&, const std::string& spelled, const std::string& value);
};

int positiveThreads(const std::string& spelled, const std::string& n) {
    try {
        std::size_t pos = 0;
        const int threads = std::stoi(n, &pos);
        if (pos != n.size() || threads < 1) throw std::invalid_argument(n);
        return threads;
    } catch (const std::exception&) {
        usageError(
            fmt::format("{} expects a positive whole number of threads, got '{}'", spelled, n));
    }
}

// In the order a command's own options are listed when another's is refused.
const std::vector<Option>& options() {
    using A = Args&;
    using S = const std::string&;
    // clang-format off
    static const std::vector<Option> table = {
        {"--threads",      "-j",    true,  "a number of threads", {"sweep"},                  [](A a, S s, S v) { a.threads = positiveThreads(s, v); }},
        {"--output",       "-o",    true,  "a file name",         {"run", "sweep", "schema"}, [](A a, S, S v) { a.output = v; }},
        {"--summary-json", nullptr, true,  "a file name",         {"run"},                    [](A a, S, S v) { a.summary_json = v; }},
        {"--csv",          nullptr, true,  "a folder name",       {"run"},                    [](A a, S, S v) { a.csv_dir = v; }},
        {"--quiet",        "-q",    false, "",                    {"run", "sweep"},           [](A a, S, S) { a.quiet = true; }},
        {"--format",       nullptr, true,  "a trace format",      {"trace"},                  [](A a, S, S v) { a.format = v; }},
        {"--json",         nullptr, false, "",                    {"size", "trace"},          [](A a, S, S) { a.json = true; }},
        {"--markdown",     nullptr, false, "",                    {"schema"},                 [](A a, S, S) { a.markdown = true; }},
        // How to read a log, as a trace job's keys of the same names (power::traceReadSpec).
        {"--fields",       nullptr, true,  "a --query-gpu list",  {"trace"},                  [](A a, S, S v) { a.trace_read.emplace_back("fields", v); }},
        {"--interval-s",   nullptr, true,  "seconds",             {"trace"},                  [](A a, S, S v) { a.trace_read.emplace_back("interval_s", v); }},
        {"--utc-offset-h", nullptr, true,  "hours",               {"trace"},                  [](A a, S, S v) { a.trace_read.emplace_back("utc_offset_h", v); }},
        {"--time-unit",    nullptr, true,  "a time unit",         {"trace"},                  [](A a, S, S v) { a.trace_read.emplace_back("time_unit", v); }},
        {"--time-column",  nullptr, true,  "a column name",       {"trace"},                  [](A a, S, S v) { a.trace_read.emplace_back("time_column", v); }},
        {"--group-column", nullptr, true,  "a column name",       {"trace"},                  [](A a, S, S v) { a.trace_read.emplace_back("group_column", v); }},
        {"--gpus",         nullptr, true,  "a number of GPUs",    {"trace"},                  [](A a, S, S v) { a.trace_read.emplace_back("gpus", v); }},
    };
    // clang-format on
    return table;
}

const Option* findOption(const std::string& spelled) {
    for (const Option& o : options()) {
        if (spelled == o.name || (o.short_name != nullptr && spelled == o.short_name)) return &o;
    }
    return nullptr;
}

/// An argument as the option it spells, value split off (`--output=DIR` → `--output`,
/// `-j2` → `-j`); the argument itself when it is no option's attached spelling.
std::string optionName(const std::string& s, std::optional<std::string>* attached = nullptr) {
    if (s.rfind("--", 0) == 0) {
        const std::size_t eq = s.find('=');
        if (eq == std::string::npos) return s;
        if (attached) *attached = s.substr(eq + 1);
        return s.substr(0, eq);
    }
    if (s.size() > 2 && s[0] == '-') {
        if (attached) *attached = s.substr(2);
        return s.substr(0, 2);
    }
    return s;
}

bool isCommand(const std::string& name) {
    return std::find(kCommands.begin(), kCommands.end(), name) != kCommands.end();
}

std::string unknownCommand(const std::string& name) {
    const std::string near =
        nearestName(name, std::vector<std::string>(kCommands.begin(), kCommands.end()));
    return fmt::format("unknown command '{}';{} valid commands: {}", name,
                       near.empty() ? "" : fmt::format(" did you mean '{}'?", near),
                       fmt::join(kCommands, ", "));
}

Args parseArgs(int argc, char** argv) {
    Args a;
    if (argc < 2) usageError("no command given");
    a.command = argv[1];
    if (!isCommand(a.command)) usageError(unknownCommand(a.command));
    bool options_ended = false;
    for (int k = 2; k < argc; ++k) {
        const std::string s = argv[k];
        // `--` ends the options, as for every POSIX tool: a file named "-x.json" can be given.
        if (!options_ended && s == "--") {
            options_ended = true;
            continue;
        }
        if (options_ended || s.empty() || s[0] != '-') {
            a.positional.push_back(s);
            continue;
        }
        // The attached spellings GNU tools and make/ninja accept, `--output=DIR`, `-j2`,
        // `-oDIR`, read as the option followed by its value.
        std::optional<std::string> attached;
        const std::string name = optionName(s, &attached);
        const Option* o = findOption(name);
        if (o == nullptr) {
            // The nearest of the command's own options, by the one rule every "did you mean"
            // follows (core/json.h nearestName).
            std::vector<std::string> own;
            for (const Option& opt : options()) {
                if (std::find(opt.commands.begin(), opt.commands.end(), a.command) ==
                    opt.commands.end()) {
                    continue;
                }
                own.push_back(opt.name);
                if (opt.short_name != nullptr) own.push_back(opt.short_name);
            }
            const std::string near = nearestName(name, own);
            usageError(fmt::format("unknown option '{}' for '{}'{}", s, a.command,
                                   near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
        }
        // An option with a value given twice kept the last one without a word (`run s.json -o
        // a.h5 -o b.h5` wrote b.h5 only): which one was meant is the user's to say.
        if (o->takes_value) {
            for (const std::string& earlier : a.given) {
                if (findOption(earlier) != o) continue;
                usageError(
                    fmt::format("option {} is given twice ({} and {}); it takes one value, "
                                "give it once",
                                name, earlier, name));
            }
        }
        a.given.push_back(name);
        if (!o->takes_value) {
            if (attached) usageError(fmt::format("option '{}' takes no value, got '{}'", name, s));
            o->store(a, name, "");
        } else if (attached) {
            o->store(a, name, *attached);
        } else {
            if (k + 1 >= argc) usageError(fmt::format("option {} needs a value", name));
            const std::string value = argv[++k];
            // `-o --quiet` wrote a report named "--quiet": a value spelled as one of the
            // options is the value left out, not a file name (`-o ./--quiet` still writes one).
            if (value.size() > 1 && value[0] == '-' && findOption(optionName(value)) != nullptr) {
                const bool folder = std::string(o->name) == "--output" && a.command == "sweep";
                usageError(fmt::format("{} expects {}, got the option {}", name,
                                       folder ? "a folder name" : o->value_name, value));
            }
            o->store(a, name, value);
        }
    }
    return a;
}

std::atomic<bool> g_cancel{false};
extern "C" void onSignal(int) { g_cancel.store(true); }

/// Refuses an option the command does not read rather than ignoring it: `dctwin size x.json -o
/// design.h5` used to exit 0 without writing the file it was asked for. The command's own
/// options are listed as --help spells them (the short form of an option with a value).
void checkOptionsApply(const Args& a) {
    auto reads = [&](const Option& o) {
        return std::find(o.commands.begin(), o.commands.end(), a.command) != o.commands.end();
    };
    for (const std::string& s : a.given) {
        if (reads(*findOption(s))) continue;
        std::string listed;
        for (const Option& o : options()) {
            if (!reads(o)) continue;
            if (!listed.empty()) listed += ", ";
            listed += (o.takes_value && o.short_name != nullptr) ? o.short_name : o.name;
        }
        usageError(fmt::format("option '{}' does not apply to 'dctwin {}'; its options: {}", s,
                               a.command, listed.empty() ? "none" : listed));
    }
}

int dispatch(const Args& a) {
    checkOptionsApply(a);
    auto oneFile = [&](const char* what) -> const std::string& {
        if (a.positional.size() != 1) {
            usageError(fmt::format("'dctwin {}' expects exactly one {} file, got {}", a.command,
                                   what, a.positional.size()));
        }
        return a.positional[0];
    };
    cli::Options o;
    o.quiet = a.quiet;
    o.progress_tty = isatty(STDERR_FILENO) != 0;
    o.cancel = &g_cancel;
    if (a.command == "run") {
        return cli::runCommand(oneFile("scenario"), a.output, a.summary_json, a.csv_dir, o);
    }
    if (a.command == "size") return cli::sizeCommand(oneFile("scenario"), a.json, o);
    if (a.command == "sweep") {
        return cli::sweepCommand(oneFile("sweep"), a.output.value_or("sweep_out"),
                                 a.threads > 0 ? a.threads : 1, o);
    }
    if (a.command == "validate") return cli::validateCommand(oneFile("scenario"), o);
    if (a.command == "schema") {
        if (!a.positional.empty()) usageError("'dctwin schema' takes no file; use -o FILE");
        return cli::schemaCommand(a.output, a.markdown);
    }
    if (a.command == "trace") {
        if (a.positional.size() != 2 || a.positional[0] != "inspect") {
            usageError(
                fmt::format("expected 'dctwin trace inspect FILE [--format F] [reading "
                            "options] [--json]'{}",
                            !a.positional.empty() && a.positional[0] != "inspect"
                                ? fmt::format(", got '{}' where 'inspect' goes", a.positional[0])
                                : std::string()));
        }
        return cli::traceInspectCommand(a.positional[1], a.format.value_or("auto"), a.trace_read,
                                        a.json);
    }
    throw std::logic_error("dctwin: command '" + a.command + "' is in kCommands but not here");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 2) {
        std::string first = argv[1];
        // `dctwin help run` gives the usage of run, as `dctwin run --help` does; for a command
        // that does not exist both printed the general usage and exit 0.
        const bool help = first == "--help" || first == "-h" || first == "help";
        std::string asked = help ? (argc >= 3 ? argv[2] : "") : first;
        if (!asked.empty() && asked[0] == '-') asked.clear();  // an option: the general usage
        bool wants_help = help;
        for (int i = 2; i < argc && !help; ++i) {
            const std::string arg = argv[i];
            wants_help = wants_help || arg == "--help" || arg == "-h";
        }
        if (wants_help) {
            if (!asked.empty() && !isCommand(asked)) {
                std::cerr << "dctwin: " << unknownCommand(asked)
                          << "\nRun 'dctwin --help' for usage.\n";
                return 2;
            }
            std::cout << (asked.empty() ? std::string(kUsage) : commandUsage(asked));
            return 0;
        }
        if (first == "--version") {
            std::cout << fmt::format("dctwin {} (commit {})\n", kVersion, kGitCommit);
            return 0;
        }
    }
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    try {
        return dispatch(parseArgs(argc, argv));
    } catch (const cli::UsageError& e) {
        std::cerr << "dctwin: " << e.what() << "\n";
        return 2;
    } catch (const InputError& e) {
        std::cerr << "dctwin: error: " << e.what() << "\n";
        return 2;
    } catch (const ModelError& e) {
        std::cerr << "dctwin: model error: " << e.what() << "\n";
        return 2;
    } catch (const CancelledError& e) {
        std::cerr << "dctwin: " << e.what() << "; no report written\n";
        return 1;
    } catch (const SolverError& e) {
        std::cerr << "dctwin: simulation failed: " << e.what() << "\nno report written\n";
        return 1;
    } catch (const std::filesystem::filesystem_error& e) {
        // Paths the user gave that the system cannot even look up are bad input (exit 2);
        // anything else (a disk failing mid-write) is a failed run (exit 1).
        const int code = e.code().value();
        const bool input = e.code().category() == std::generic_category() ||
                           e.code().category() == std::system_category();
        if (input && (code == ENAMETOOLONG || code == ENOTDIR || code == ELOOP || code == EISDIR ||
                      code == ENOENT || code == EACCES)) {
            std::cerr << "dctwin: error: " << quoteValue(e.path1().string()) << ": "
                      << e.code().message() << "\n";
            return 2;
        }
        std::cerr << "dctwin: failed: " << e.code().message() << ": "
                  << quoteValue(e.path1().string()) << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "dctwin: failed: " << e.what() << "\n";
        return 1;
    }
}
