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
//                           start=<ISO 8601>
//   /timeseries/<group>/<name>
//                           1-D double, chunked (chunk = min(n, chunk_size)), shuffle + deflate;
//                           attributes units, description (when not empty). A group with '/'
//                           ("rack/r01") becomes nested groups.
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

#include "core/results.h"

namespace dctwin {

class ReportWriter {
public:
    virtual ~ReportWriter() = default;
    /// Writes `report` to `path` (a file for HDF5, a directory for CSV) atomically.
    virtual void write(const Report& report, const std::filesystem::path& path) = 0;
};

struct Hdf5Options {
    int compression_level = 4;      // deflate level 0..9; 0 keeps chunking, no compression
    std::size_t chunk_size = 4096;  // [samples] upper bound of a time-series chunk
};

std::unique_ptr<ReportWriter> makeHdf5Writer(const Hdf5Options& options = {});

/// `path` is a directory (created if absent) that receives:
///   timeseries.csv  header "time_s,<group>/<name> [unit],..."; one row per sample
///   summary.csv     "name,value,unit"
///   <table path with '/' replaced by '_'>.csv, header "<column> [unit]" (text columns bare)
/// Each file is written to a temporary name and renamed. Numbers are printed with full
/// round-trip precision.
std::unique_ptr<ReportWriter> makeCsvWriter();

/// Writes nothing.
std::unique_ptr<ReportWriter> makeNullWriter();

}  // namespace dctwin
