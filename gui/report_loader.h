#pragma once
// Reads a dctwin HDF5 report (layout in core/io/report_writer.h) back into a Report, so that
// File → Open report shows a finished run (e.g. from `dctwin run -o` on a server) in the same
// tabs as a run made in the GUI.
#include <filesystem>

#include "core/results.h"

namespace dctwin::gui {

/// Root attributes, /scenario texts, /summary metrics (in the file's order), every table under
/// /sizing, /contingency and /study, and every channel under /timeseries (nested groups such as
/// rack/r01 of older reports included); a 2-D series array such as /timeseries/racks/junction_temp
/// [time, rack_group] becomes one channel per column ("racks/<rack group name>/junction_temp") and
/// a ChannelArray. Throws InputError naming the file and the object when the file is not a dctwin
/// report.
Report loadReportFile(const std::filesystem::path& file);

}  // namespace dctwin::gui
