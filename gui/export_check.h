#pragma once
// The check the CLI makes of an output path before it writes (core/io/report_writer.h
// checkOutputFile), for the app's exports: its folder exists and takes files, and the path is
// no directory, symbolic link, device, pipe or socket (a save renamed over those replaces them,
// and writing into a named pipe without a reader blocks the app). Every export of the app
// (PNG, SVG, PDF, HDF5, saved scenario) calls it before it writes.
#include <QString>

namespace dctwin::gui {

/// True when `path` may be written as a file; otherwise false with the reason (naming `what`
/// and the path, as the CLI words it) in *error when error is not null.
bool checkExportFile(const QString& path, const char* what, QString* error);

}  // namespace dctwin::gui
