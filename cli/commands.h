#pragma once
// The CLI's commands, separated from argument parsing so each reads top to bottom.
#include <atomic>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace dctwin::cli {

/// Wrong command line: exit status 2 with usage advice.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Options {
    bool quiet = false;
    bool progress_tty = false;  // stderr is a terminal: draw a bar with ETA
    const std::atomic<bool>* cancel = nullptr;
};

int runCommand(const std::string& scenario, const std::optional<std::string>& report,
               const std::optional<std::string>& summary_json,
               const std::optional<std::string>& csv_dir, const Options& options);
int sizeCommand(const std::string& scenario, bool as_json, const Options& options);
int sweepCommand(const std::string& sweep, const std::string& out_dir, int threads,
                 const Options& options);
int validateCommand(const std::string& scenario, const Options& options);
/// The scenario JSON Schema (or, with `markdown`, the scenario reference) to stdout or `output`.
int schemaCommand(const std::optional<std::string>& output, bool markdown);
/// What a telemetry log holds (power/trace_inspect.h), as text or JSON on stdout.
/// `read`: how to read the log, as (trace job key, text) pairs (power::traceReadSpec).
int traceInspectCommand(const std::string& file, const std::string& format,
                        const std::vector<std::pair<std::string, std::string>>& read, bool as_json);

}  // namespace dctwin::cli
