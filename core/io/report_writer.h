#pragma once
// Report writers (DESIGN.md §5.3): HDF5 (the report), CSV (for spreadsheets) and null (runs
// whose results are only looked at in memory). No HDF5 type appears here.
//
// Every writer first validates the whole Report (channel lengths against the time grid,
// table column lengths, names) and throws ModelError before touching the disk, then writes to
// a temporary file "<final>.tmp.<pid>" in the destination directory and renames it onto the
// final name only when everything was written and closed. A failed write therefore never
// leaves a partial file, and a report that already exists under the final name survives.
//
// HDF5 layout (readable by h5py, HDFView, h5dump):
//   /                       string attributes from Report::attributes (generator, version, ...)
//   /<text path>            Report::texts, e.g. /scenario/input: scalar variable-length UTF-8
//                           string dataset; intermediate groups are created
//   /summary                group; per Metric: attribute <name> (scalar double) and attribute
//                           <name>_units (string); and a scalar double dataset /summary/<name>
//                           with a string attribute `units` (so every dataset has units)
//   /<Table::path>          1-D compound dataset, one element per row; members in column
//                           order, numeric columns as IEEE double, text columns as fixed-length
//                           null-terminated UTF-8 strings (width = longest value + 1); attribute
//                           `units`: 1-D array of variable-length strings aligned with the
//                           members ("" for text columns)
//   /timeseries/time        1-D double [s] since study start; attributes units="s",
//                           start=<ISO 8601>, long_name; an HDF5 dimension scale "time"
//   /timeseries/<group>/time
//                           the group's time coordinate (NetCDF-4/CF, issue 17): the same
//                           values; attributes units="seconds since <start>" (plain "s" when the
//                           start is unknown), calendar="proleptic_gregorian", standard_name=
//                           "time", axis="T", long_name; an HDF5 dimension scale (H5DS) that
//                           every series of the group is attached to, so xarray/netCDF open
//                           the group indexed by datetimes. "time" is therefore not a valid
//                           channel name.
//   /timeseries/<group>/<name>
//                           1-D double, chunked (chunk = min(n, chunk_size)), shuffle + deflate;
//                           attributes units (UDUNITS spelling: "C" is written "degC", "Lpm"
//                           "L/min", "%" "percent"; SI strings as they are), long_name (name in
//                           words + description), description (when not empty). A group with
//                           '/' ("rack/r01") becomes nested groups.
//   /timeseries/<array group>/...
//                           a ChannelArray (per-rack-group series, issue 17): its columns are
//                           not written as 1-D series but packed per variable into a 2-D double
//                           dataset <name> [time, <dimension>] (chunked along time, shuffle +
//                           deflate) with the group's `time` scale on axis 0 and the integer
//                           dimension scale <dimension> (column index 0..n-1) on axis 1;
//                           attributes units, long_name, description and CF `coordinates`
//                           listing the 1-D coordinate datasets on axis 1: <dimension>_name
//                           (variable-length UTF-8 column names) and each Coordinate (text,
//                           64-bit integers or doubles; long_name, units for numbers).
//   Groups track link creation order, so listing children returns channels in the order the
//   model declared them. Empty datasets (no samples) are stored contiguous, since HDF5 chunks
//   cannot be empty.
//
// Errors: InputError when the destination directory does not exist or is not writable (the
// user can fix the path); ModelError when the Report is inconsistent; Error for any other
// failure. Every message names the destination path.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

#include "core/results.h"

namespace dctwin {

/// A file written under a temporary name, waiting to be renamed onto its final name.
struct StagedFile {
    std::filesystem::path temporary;
    std::filesystem::path final_path;
};

/// What a writer left on disk without renaming anything yet.
struct StagedOutput {
    std::vector<StagedFile> files;
    std::vector<std::filesystem::path> created_directories;  // removed again on rollback
};

class ReportWriter {
public:
    virtual ~ReportWriter() = default;
    /// Writes `report` to `path` (a file for HDF5, a directory for CSV) atomically: stage()
    /// then rename.
    void write(const Report& report, const std::filesystem::path& path);
    /// Writes everything to temporaries "<final>.tmp.<pid>" beside the final names and renames
    /// nothing. On failure removes what it wrote and throws; on success the caller owns the
    /// temporaries (see OutputTransaction).
    virtual StagedOutput stage(const Report& report, const std::filesystem::path& path) = 0;
};

/// The outputs of one run as one transaction (DESIGN.md §5.3, §7): every output is staged to
/// temporaries; commit() renames them all onto their final names only after every one was
/// written, the first staged last (stage the report first: an existing report is replaced
/// only once everything else is in place). Destroying an uncommitted transaction removes the
/// temporaries and the folders staging created, so a failed summary or CSV write leaves an
/// earlier report untouched and nothing behind.
class OutputTransaction {
public:
    OutputTransaction() = default;
    ~OutputTransaction() { rollback(); }
    OutputTransaction(const OutputTransaction&) = delete;
    OutputTransaction& operator=(const OutputTransaction&) = delete;

    void stage(ReportWriter& writer, const Report& report, const std::filesystem::path& path);
    /// Stages a text file (a JSON summary); Error naming the file if it cannot be written.
    void stageText(const std::filesystem::path& path, std::string_view text);
    /// Renames every temporary onto its final name; Error naming the file if a rename fails
    /// (the temporaries not yet renamed are removed).
    void commit();
    /// Removes the temporaries and created folders; never throws.
    void rollback() noexcept;

private:
    void add(StagedOutput staged);
    StagedOutput staged_;
};

/// Checks before a run that `path` can be written as a file: its folder exists and is
/// writable and `path` is not a directory. InputError naming `what` and the path otherwise.
/// Also removes stale temporaries of dead processes from that folder.
void checkOutputFile(const std::filesystem::path& path, std::string_view what);
/// The same for an output folder (CSV): it is a writable directory, or it does not exist and
/// its parent is a writable directory.
void checkOutputDirectory(const std::filesystem::path& dir, std::string_view what);
/// Removes the "<name>.tmp.<pid>" files in `dir` whose process no longer runs (left by a run
/// that was killed while writing). Returns how many it removed; never throws.
std::size_t removeStaleTemporaries(const std::filesystem::path& dir) noexcept;

struct Hdf5Options {
    int compression_level = 4;      // deflate level 0..9; 0 keeps chunking, no compression
    std::size_t chunk_size = 4096;  // [samples] upper bound of a time-series chunk
    /// Threads that compress the time series' chunks (core/io/chunk_packer.h); 0: one per
    /// core. The file is the same whatever the number.
    unsigned threads = 0;
};

std::unique_ptr<ReportWriter> makeHdf5Writer(const Hdf5Options& options = {});

/// `path` is a directory (created if absent) that receives:
///   timeseries.csv  header "time_s,<group>/<name> [unit],..."; one row per sample
///   summary.csv     "name,value,unit"
///   <table path with '/' replaced by '_'>.csv, header "<column> [unit]" (text columns bare)
/// Each file is written to a temporary name and renamed. Numbers are printed with full
/// round-trip precision; no value (NaN) is an empty cell.
std::unique_ptr<ReportWriter> makeCsvWriter();

/// One CSV field as RFC 4180 writes it: as it is, or in double quotes (a quote doubled) when
/// it holds a comma, a quote or a line break.
std::string csvField(std::string_view s);

/// Writes nothing.
std::unique_ptr<ReportWriter> makeNullWriter();

}  // namespace dctwin
