#pragma once
// Results: named time-series channels with units, tables, and the report that writers store
// (DESIGN.md §5.3). Plain data; no HDF5 here (that lives in core/io/).
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace dctwin {

struct Channel {
    std::string group;  // "power", "cooling", "rack/r01" (may contain '/')
    std::string name;   // "it_power"
    std::string unit;   // SI unit string, e.g. "W", "K", "m3/s", "1"
    std::string description;
    std::vector<double> values;
};

/// Samples on a common time grid.
class ResultSet {
public:
    std::vector<double> time;   // [s] since study start
    std::string start_iso8601;  // wall-clock start of the study, e.g. "2026-07-01T00:00:00"
    std::vector<Channel> channels;

    /// Adds an empty channel; throws ModelError if group/name already exists.
    Channel& addChannel(std::string group, std::string name, std::string unit,
                        std::string description = {});
    /// Channel by "group/name", or nullptr.
    const Channel* find(std::string_view group, std::string_view name) const;
    Channel* find(std::string_view group, std::string_view name);
    /// Channel by "group/name"; throws ModelError listing channels if absent.
    const Channel& at(std::string_view group, std::string_view name) const;
};

/// A column-oriented table with per-column units (sizing tables).
struct Table {
    struct Column {
        std::string name;
        std::string unit;  // "" for text columns
        std::variant<std::vector<double>, std::vector<std::string>> data;
    };
    std::string path;  // where it goes in the report, e.g. "sizing/power"
    std::vector<Column> columns;
    std::size_t rows() const;
    /// Adds a column; all columns must end with the same length.
    void addNumbers(std::string name, std::string unit, std::vector<double> v);
    void addText(std::string name, std::vector<std::string> v);
};

struct Metric {
    std::string name;         // unit in the name where it has one ("it_energy_MWh")
    double value = 0.0;       // in `unit`
    std::string unit;         // "MWh", "kW", "C", "%", "1", ...
    std::string description;  // what it is, for the report, the CLI and the GUI
};

/// Everything a report holds.
struct Report {
    std::map<std::string, std::string> attributes;  // root: generator, version, git_commit, ...
    std::map<std::string, std::string> texts;       // e.g. "scenario/input" → JSON text
    std::vector<Metric> summary;
    std::vector<Table> tables;
    ResultSet timeseries;
};

}  // namespace dctwin
