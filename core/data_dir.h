#pragma once
/// @file
/// @brief Where the shipped data (catalog, coolants, weather, traces) and scenarios are found.
///
/// Why: the binary must work without its source tree — installed under a prefix
/// (`<prefix>/bin/dctwin` beside `<prefix>/share/dctwin/{data,scenarios}`), from a .deb, or
/// from a build folder. Nothing outside this module knows the compile-time source path.
///
/// The data folder is the first of, in order:
///   1. `$DCTWIN_DATA_DIR`, when set and not empty (then the only place tried, so a wrong
///      setting is reported instead of silently replaced);
///   2. relative to the running executable (`/proc/self/exe`): `<exe dir>/../share/dctwin/data`
///      (an installed copy), then the source tree's `data/` when the executable sits in a
///      CMake build folder (a `CMakeCache.txt` in its folder or up to three folders above,
///      whose `CMAKE_HOME_DIRECTORY` is the source tree);
///   3. the install prefix chosen at configure time, `CMAKE_INSTALL_PREFIX/share/dctwin/data`.
/// A folder counts as the data folder when it holds `catalog/` and `coolants/`.
#include <filesystem>
#include <string>
#include <vector>

namespace dctwin {

/// @brief One place where the data folder may be, with why it is tried (for error messages).
struct DataDirCandidate {
    std::filesystem::path dir;  ///< folder that would hold catalog/, coolants/, ...
    std::string origin;         ///< e.g. "DCTWIN_DATA_DIR", "next to the executable /x/bin"
};

/// @brief The folder that holds catalog/, coolants/, weather/ and traces/.
/// @return an existing folder (not canonicalised).
/// @throws InputError naming every place tried and telling to set DCTWIN_DATA_DIR.
std::filesystem::path dataDir();

/// @brief The folder of the shipped scenarios (installed as `share/dctwin/scenarios`).
///
/// The sibling `scenarios/` of dataDir() first (the layout of both the source tree and an
/// install), then the executable-relative and install-prefix places of dataDir().
/// @throws InputError naming every place tried.
std::filesystem::path scenariosDir();

/// @brief A shipped data file given as scenarios write it, relative to the project root
/// (`data/weather/X.epw`) or to the data folder (`weather/X.epw`).
/// @param relative a relative path; a leading `data/` is dropped. Absolute paths are
///        returned unchanged.
/// @return dataDir() / the rest (the file need not exist).
std::filesystem::path dataFile(const std::filesystem::path& relative);

/// @brief The places dataDir() tries, in order (exposed for tests and diagnostics).
std::vector<DataDirCandidate> dataDirCandidates();

/// @brief The first candidate that is a data folder.
/// @param candidates places in order of preference.
/// @throws InputError listing every candidate with its origin, and how to set
///         DCTWIN_DATA_DIR, when none is.
std::filesystem::path firstDataDir(const std::vector<DataDirCandidate>& candidates);

/// @brief True when `dir` holds `catalog/` and `coolants/`.
bool isDataDir(const std::filesystem::path& dir);

}  // namespace dctwin
