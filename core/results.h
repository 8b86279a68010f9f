#pragma once
// Results: named time-series channels with units, tables, and the report that writers store
// (DESIGN.md §5.3). Plain data; no HDF5 here (that lives in core/io/).
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "core/sample_storage.h"

namespace dctwin {

struct Channel {
    std::string group;  // "power", "cooling", "rack/r01" (may contain '/')
    std::string name;   // "it_power"
    std::string unit;   // SI unit string, e.g. "W", "K", "m3/s", "1"
    std::string description;
    SampleVector values;  ///< one per sample of the set's time
};

/// Channels that the HDF5 report stores together as 2-D `[time, dimension]` datasets (issue
/// 17), e.g. the per-rack-group series: one dataset per quantity, one column per rack group,
/// with coordinates that name each column. The columns stay ordinary channels of the ResultSet
/// (the GUI, the CSV writer and the Python module read them one by one): the channel of column
/// j of variable v is `group/labels[j]/v.name`. Only the HDF5 writer packs them, so the
/// report has one representation of them, the 2-D one.
struct ChannelArray {
    /// A coordinate along the second axis: one value per column.
    struct Coordinate {
        std::string name;         ///< dataset name, e.g. "rack_count"
        std::string unit;         ///< "" for text, "1" for counts
        std::string description;  ///< long_name in the report
        std::variant<std::vector<double>, std::vector<std::int64_t>, std::vector<std::string>>
            values;
    };
    /// One quantity: a 2-D dataset `group/name`.
    struct Variable {
        std::string name;         ///< "junction_temp"
        std::string description;  ///< what the columns are, for long_name
    };
    std::string group;                    ///< "racks": /timeseries/racks
    std::string dimension;                ///< name of the second axis, e.g. "rack_group"
    std::vector<std::string> labels;      ///< per column; stored as `dimension_name`
    std::vector<Coordinate> coordinates;  ///< further per-column coordinates
    std::vector<Variable> variables;
    /// `group/label`: the group of the channel of column `column`.
    std::string channelGroup(std::size_t column) const { return group + "/" + labels[column]; }
};

/// Samples on a common time grid.
class ResultSet {
public:
    SampleVector time;          // [s] since study start
    std::string start_iso8601;  // wall-clock start of the study, e.g. "2026-07-01T00:00:00"
    std::vector<Channel> channels;
    std::vector<ChannelArray> arrays;  ///< channels the HDF5 report stores as 2-D arrays

    /// Adds an empty channel; throws ModelError if group/name already exists.
    Channel& addChannel(std::string group, std::string name, std::string unit,
                        std::string description = {});
    /// Channel by "group/name", or nullptr.
    const Channel* find(std::string_view group, std::string_view name) const;
    Channel* find(std::string_view group, std::string_view name);
    /// Channel by "group/name"; throws ModelError listing channels if absent.
    const Channel& at(std::string_view group, std::string_view name) const;

private:
    /// Position by group and name of the channels: a campus records ~22,000 channels (four
    /// per job at 5,560 jobs), and a linear search per added or looked-up channel made
    /// recording and the job table quadratic (issue 12). addChannel and the non-const find
    /// keep it up to date; the const lookups only read it (they may run on one set from
    /// several threads), search linearly past its end for channels appended to `channels`
    /// directly, and check every hit. Positions, not addresses: copies and moves keep it
    /// valid. Channels may only be appended; a channel's group and name must not change.
    std::size_t position(std::string_view group, std::string_view name) const;
    void reindex();
    std::unordered_map<std::string, std::size_t> index_;
    std::size_t indexed_ = 0;  // channels [0, indexed_) are in index_
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
