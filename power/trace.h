#pragma once
// Workload traces (DESIGN.md §3.1; data/traces/SOURCES.md): measured GPU telemetry that a job
// replays, read from the formats GPU clusters actually write.
//
// Two levels:
//  * TraceData: what a file holds — value columns with their units, one series per device
//    (GPU index, PCI bus id, DCGM entity, long-format group key), each on its own sample
//    times, plus the warnings the reader gave (a truncated last line dropped, say).
//  * TraceSeries: one value over time, what a job replays — one device's samples, or several
//    devices aggregated onto a common grid (aggregateTrace).
//
// Formats (readTrace; `format` "auto" detects them from the first lines):
//  * nvidia_smi: `nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits] -lms N`. Any
//    field set; `, ` separators; ` [W]`-style header units; `W`, `%`, `MiB`, `MHz` value
//    suffixes; `YYYY/MM/DD HH:MM:SS.fff` stamps; `[N/A]`/`[Not Supported]` read as missing.
//    Devices by `index`, `pci.bus_id` or `uuid`; without any of them each polling cycle's rows
//    are the GPUs in order — the GPU count is `gpus` or inferred from the row times (rows
//    milliseconds apart inside a cycle, a polling period between cycles). `noheader` logs
//    need `fields` (the --query-gpu list). Fields logged without a unit (`nounits`, or a
//    `fields` list without units) take the unit nvidia-smi gives them: power.* W, utilization.*
//    and fan.speed %, memory.* MiB, clocks.* MHz, temperature.* C; other fields take their first
//    value's unit suffix. A value whose unit contradicts its field's ("100 %" in power.draw)
//    is an error. `nvidia-smi dmon` / `pmon` text ("# gpu pwr ...", "# Idx W ...") is not read:
//    an error says how to log with --query-gpu instead.
//  * dcgm_dmon: `dcgmi dmon -e ...` text: `#Entity  POWER ...` header, an `ID  W ...` units
//    line, then one `GPU i  v1 v2 ...` row per entity and cycle; no timestamps, so cycles are
//    `interval` apart (dcgmi's -d, default 1000 ms). Repeated headers are skipped. A cycle
//    ends where an entity repeats or one comes that stands earlier in the print order (that
//    of the first cycle listing every entity), so a cycle that misses its first entity is not
//    merged with the next; cycles that lack entities are warned of (the last one is not
//    judged). Without a cycle listing every entity, cycles split at repeats only. Limitation:
//    dmon has no timestamps, so if the first cycle misses its first entity the order is read
//    rotated and that entity's samples are placed one interval early throughout.
//  * dcgm_prometheus: dcgm-exporter's text exposition, `DCGM_FI_DEV_POWER_USAGE{gpu="0",...}
//    312.5 [timestamp_ms]`, several scrapes concatenated. Devices by the `gpu` label (prefixed
//    by `Hostname` when several hosts appear); a scrape's time is its samples' timestamp, or
//    without timestamps the scrape count × `interval`. A series sampled twice at one
//    timestamp is an error naming both lines if the values differ; an identical copy is
//    dropped with a warning.
//  * delimited (alias csv): generic text with a header; the delimiter (tab, semicolon, comma,
//    `, `) is detected; the time column is chosen by name (default: a column called time,
//    timestamp, date…, else the first) and holds seconds (× `time_unit`) or ISO 8601 /
//    `YYYY/MM/DD HH:MM:SS.fff` datetimes (a `Z` or ±hh:mm zone is honoured, stamps without a
//    zone are read as UTC + `utc_offset`); value columns by name; units in headers
//    (`power [kW]`, `power (W)`, `power_kW`) or values (`1.2 kW`) are converted to the
//    canonical unit of their quantity. Long format: with a group column (`group_column`, or
//    detected when times repeat and a device/gpu/node/pod/host column exists) each group is a
//    device.
//  * cornell: Cornell BioHPC hourly GPU telemetry: UTF-8 BOM, tab-separated, 14 columns
//    (name, timestamp, powerave, powermin, powermax, tempave, tempmin, tempmax, utilave,
//    utilmin, utilmax, gmemave, gmemmin, gmemmax), newest row first, a footer of blank lines,
//    "(N rows affected)" and "Completion time: ..."; N is checked against the rows read.
//
// Units (canonical, what TraceData holds): power W (from mW, W, kW, MW), utilization % (from
// %, or "ratio" 0..1 × 100), memory MiB (KiB, MiB, GiB, MB, GB), clock MHz (MHz, GHz),
// temperature C, energy J (mJ, J, kJ, kWh). An unknown unit is an error listing the known.
//
// Errors: any malformed row (wrong field count, a non-numeric field, an unknown unit, a bad
// datetime, time running the wrong way, a power reading below 0 W) is an InputError naming
// file, line and field. The last line alone may be cut short by a logger that was killed: it
// is dropped with a warning.
//
// Sampling and gaps (per device): the nominal step Δ is the most common spacing (to the ms),
// the jitter the RMS deviation of the spacings from Δ outside gaps; a spacing above 1.5·Δ is
// a gap. For a column, the spacing is between the samples that have a reading: a run of N/A
// readings is a gap like missing rows. A gap longer than `max_gap` is an error naming the
// lines around it; one longer than 10·Δ and 1 s (a clock that jumped, a logger that stopped)
// is warned of (TraceSeries::warnings) with its lines, times and length. Inside gaps the
// aggregated series is filled by the stated policy:
//   hold         the last value before the gap, until the first one after it;
//   interpolate  linear between the samples around the gap;
//   idle         `idle_value` (the power or utilization of an idle GPU).
// Aggregation (several devices → one series): the grid is uniform, from the first to the last
// sample time of all devices, at the nominal step of the device with the most samples (or a
// given step); every device is interpolated linearly at the grid times (filled in its gaps),
// then the devices are summed or averaged: sum S(t) = Σ_i x_i(t), mean S(t)/n. A device
// without a single reading in the column is left out of both (n counts the devices that
// report, TraceSeries::devices), with a warning naming it.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace dctwin::power {

struct TraceGap {
    std::size_t line = 0;         // file line of the sample after the gap (in file order)
    double from = 0;              // [s] trace time of the last sample before the gap
    double to = 0;                // [s] trace time of the first sample after it
    std::size_t line_before = 0;  // file line of the sample before the gap (0: not known)
    std::size_t unread = 0;       // rows inside the gap whose reading was N/A
};

struct TraceSeries {
    std::string file;
    std::string column;
    std::vector<double> time;   // [s] since the first (oldest) sample, strictly increasing
    std::vector<double> value;  // as in the file (%, W, fraction)
    std::vector<TraceGap> gaps;
    double nominal_step = 0;  // [s] most common sample spacing
    double start_epoch = 0;   // [s] Unix time of the first sample (datetimes), 0 otherwise
    /// Devices whose values make up the series (aggregateTrace): devices without a single
    /// reading in the column are left out, so a sum divided by this is the mean per device
    /// that reports.
    std::size_t devices = 0;
    /// What the reader warned about (TraceData::warnings: a cut-off last line dropped, say),
    /// kept so a run that replays the series tells the user as `trace inspect` does.
    std::vector<std::string> warnings;

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

/// The Cornell format, one column (see above).
TraceSeries readCornellTrace(const std::filesystem::path& file, const TraceOptions& options = {});
/// The original two-column `time,value` CSV reader (numeric time in the first column). Kept
/// for callers that rely on its strictness; scenarios read CSV through readTrace().
TraceSeries readCsvTrace(const std::filesystem::path& file, const TraceOptions& options = {});

// ---------------------------------------------------------------------------------------------
// Multi-device telemetry

/// A value column: its name as in the file (units stripped) and its canonical unit.
struct TraceColumn {
    std::string name;
    std::string unit;         // canonical: W, %, MiB, MHz, C, J, s, or "" (none/unknown)
    std::string source_unit;  // as written in the file ("kW", "W", "" ...)
};

/// One device's samples. Values are NaN where the file said N/A.
struct TraceDevice {
    std::string id;
    std::vector<double> time;                 // [s] since TraceData time 0, increasing
    std::vector<std::vector<double>> values;  // [column][sample], canonical units
    std::vector<std::size_t> lines;           // file line of each sample
};

struct TraceData {
    std::string file;
    std::string format;  // nvidia_smi | dcgm_dmon | dcgm_prometheus | delimited | cornell
    std::vector<TraceColumn> columns;
    std::vector<TraceDevice> devices;
    std::string time_column;     // the column the times came from ("" if none)
    double start_epoch = 0;      // [s] Unix time of time 0 (datetimes), else 0
    bool absolute_time = false;  // times came from datetimes (start_epoch is meaningful)
    std::vector<std::string> warnings;

    /// Index of a value column by name (case-insensitive; units ignored); InputError listing
    /// the columns when there is none.
    std::size_t columnIndex(const std::string& name) const;
    /// The first column whose unit is `unit`, a limit (a name with "limit":
    /// enforced.power.limit) only when no other column has the unit (npos when none).
    std::size_t columnWithUnit(const std::string& unit) const;
    std::size_t samples() const;  ///< all devices together
};

struct TraceReadOptions {
    std::string format = "auto";  // auto | nvidia_smi | dcgm_dmon | dcgm_prometheus |
                                  // delimited | csv | cornell
    std::string time_column;      // delimited: "" = by name, else the first column
    std::string group_column;     // delimited long format: "" = detected
    std::string fields;           // nvidia_smi noheader: the --query-gpu list
    double time_unit = 1.0;       // [s] per unit of a numeric time column
    double interval = 0.0;        // [s] dmon/prometheus without timestamps (0: 1 s)
    int gpus = 0;                 // nvidia_smi rows without index: GPUs per cycle (0: inferred)
    double utc_offset = 0.0;      // [s] local time − UTC of datetimes without a zone
};

/// The formats readTrace accepts (for messages and the scenario's choices).
const std::vector<std::string>& traceFormats();
/// Reads a telemetry file (formats above). InputError with file, line and field on bad input.
TraceData readTrace(const std::filesystem::path& file, const TraceReadOptions& options = {});
/// The format the first lines of a file look like ("" when none fits).
std::string detectTraceFormat(const std::vector<std::string>& lines);

/// Sampling of one device: nominal step, mean step, jitter and gaps (see the header comment).
struct TraceSampling {
    double nominal_step = 0;  // [s] most common spacing
    double mean_step = 0;     // [s] span / (samples − 1)
    double jitter = 0;        // [s] RMS of (spacing − nominal) outside gaps
    std::vector<TraceGap> gaps;
};
TraceSampling traceSampling(const TraceDevice& device);
/// The same for one column: the nominal step is still that of the device's rows (the logger's
/// polling), but a run of N/A readings in the column is a gap like rows that are missing
/// (TraceGap::unread counts them), as it is for max_gap and the gap fill.
TraceSampling traceSampling(const TraceDevice& device, std::size_t column);

enum class GapFill { Hold, Interpolate, Idle };
enum class TraceAggregate { Mean, Sum };

struct AggregateOptions {
    std::size_t column = 0;
    TraceAggregate rule = TraceAggregate::Mean;
    GapFill fill = GapFill::Interpolate;
    double idle_value = 0.0;       // fill value of GapFill::Idle (canonical unit)
    double max_gap = 48 * 3600.0;  // [s] longer gaps are an error
    double grid_step = 0.0;        // [s] 0: the nominal step of the longest device
    /// Applied to each device's value before summing or averaging (power → utilization).
    std::function<double(double)> transform;
};

/// One series from the devices (see the header comment). A single device with interpolated
/// gaps keeps its own sample times; everything else is put on the uniform grid.
TraceSeries aggregateTrace(const TraceData& data, const AggregateOptions& options);

}  // namespace dctwin::power
