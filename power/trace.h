#pragma once
// Workload traces (DESIGN.md §3.1; data/traces/SOURCES.md): a measured utilization or power
// series that a job replays.
//
// Formats
//  * Generic CSV: one sample per line, `time,value` (comma-separated, two or more columns;
//    the first is the time in `time_unit`, the chosen column the value). A first line that is
//    not numeric is a header. Times must increase strictly.
//  * Cornell BioHPC hourly GPU telemetry: UTF-8 BOM, tab-separated, 14 columns
//    (name, timestamp, powerave, powermin, powermax, tempave, tempmin, tempmax, utilave,
//    utilmin, utilmax, gmemave, gmemmin, gmemmax), newest row first, then a footer of blank
//    lines, "(N rows affected)" and "Completion time: ..."; N is checked against the rows read.
// Any malformed row (wrong field count — e.g. a truncated last row —, a non-numeric field, a
// bad timestamp, time running the wrong way) is an InputError naming file and line.
//
// Gaps: samples are joined by linear interpolation. A step longer than the nominal step (the
// most common one) is a gap; every gap is reported in `gaps`. A gap longer than `max_gap`
// (default 48 h; the shipped Cornell files have gaps of up to 14 h and 28 h) is an error
// naming the two lines around it, because interpolating over days invents a workload.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace dctwin::power {

struct TraceGap {
    std::size_t line = 0;  // file line of the sample after the gap (in file order)
    double from = 0;       // [s] trace time of the last sample before the gap
    double to = 0;         // [s] trace time of the first sample after it
};

struct TraceSeries {
    std::string file;
    std::string column;
    std::vector<double> time;   // [s] since the first (oldest) sample, strictly increasing
    std::vector<double> value;  // as in the file (%, W, fraction)
    std::vector<TraceGap> gaps;
    double nominal_step = 0;  // [s] most common sample spacing
    double start_epoch = 0;   // [s] Unix time of the first sample (Cornell), 0 for CSV

    std::size_t size() const { return time.size(); }
    double span() const { return time.empty() ? 0.0 : time.back() - time.front(); }  // [s]
    /// Linear interpolation, held flat outside the samples.
    double at(double t) const;
    /// ∫ value dt over [t0, t1] of the interpolant (exact; flat extension outside).
    double integral(double t0, double t1) const;
    /// Samples missing inside the gaps (at the nominal step).
    std::size_t missingSamples() const;
};

struct TraceOptions {
    std::string column;            // Cornell: column name (default "utilave"); CSV: "" = 2nd
    double time_unit = 1.0;        // [s] per CSV time unit
    double max_gap = 48 * 3600.0;  // [s]
};

TraceSeries readCornellTrace(const std::filesystem::path& file, const TraceOptions& options = {});
TraceSeries readCsvTrace(const std::filesystem::path& file, const TraceOptions& options = {});

}  // namespace dctwin::power
