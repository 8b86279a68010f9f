#include "core/data_dir.h"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <system_error>

#include "core/errors.h"

// Set by CMake for this file only (CMakeLists.txt, GNUInstallDirs); the defaults are the
// GNU layout so the file also builds outside CMake.
#ifndef DCTWIN_INSTALL_PREFIX
#define DCTWIN_INSTALL_PREFIX "/usr/local"
#endif
#ifndef DCTWIN_INSTALL_SHARE_DIR  // <prefix>-relative folder of data/ and scenarios/
#define DCTWIN_INSTALL_SHARE_DIR "share/dctwin"
#endif
#ifndef DCTWIN_INSTALL_BIN_TO_SHARE  // from the folder of the executables to the share folder
#define DCTWIN_INSTALL_BIN_TO_SHARE "../share/dctwin"
#endif

namespace dctwin {
namespace fs = std::filesystem;

namespace {

constexpr const char* kEnv = "DCTWIN_DATA_DIR";

std::optional<fs::path> runningExecutable() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec || exe.empty()) return std::nullopt;
    return exe;
}

/// The source tree of the CMake build folder that holds `exe` (its CMakeCache.txt in the
/// executable's folder or up to three folders above: build/, build/tests/, ...).
std::optional<fs::path> sourceTreeOfBuild(const fs::path& exe) {
    fs::path dir = exe.parent_path();
    for (int up = 0; up <= 3 && !dir.empty(); ++up) {
        std::error_code ec;
        const fs::path cache = dir / "CMakeCache.txt";
        if (fs::is_regular_file(cache, ec)) {
            std::ifstream in(cache);
            const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
            for (std::string line; std::getline(in, line);) {
                if (line.rfind(key, 0) == 0) return fs::path(line.substr(key.size()));
            }
            return std::nullopt;
        }
        if (dir == dir.parent_path()) break;
        dir = dir.parent_path();
    }
    return std::nullopt;
}

/// Folders laid out as `data/` + `scenarios/` (an install's share/dctwin, or a source tree),
/// in order of preference, with their origin. Independent of the environment.
const std::vector<DataDirCandidate>& shareRoots() {
    static const std::vector<DataDirCandidate> roots = [] {
        std::vector<DataDirCandidate> r;
        if (const auto exe = runningExecutable()) {
            r.push_back({(exe->parent_path() / DCTWIN_INSTALL_BIN_TO_SHARE).lexically_normal(),
                         fmt::format("installed beside the executable {}", exe->string())});
            if (const auto src = sourceTreeOfBuild(*exe)) {
                r.push_back(
                    {*src, fmt::format("source tree of the build folder of {}", exe->string())});
            }
        }
        r.push_back({fs::path(DCTWIN_INSTALL_PREFIX) / DCTWIN_INSTALL_SHARE_DIR,
                     "install prefix chosen at build time"});
        return r;
    }();
    return roots;
}

std::optional<fs::path> environmentDataDir() {
    const char* v = std::getenv(kEnv);
    if (v == nullptr || *v == '\0') return std::nullopt;
    return fs::path(v);
}

}  // namespace

bool isDataDir(const fs::path& dir) {
    std::error_code ec;
    return fs::is_directory(dir / "catalog", ec) && fs::is_directory(dir / "coolants", ec);
}

std::vector<DataDirCandidate> dataDirCandidates() {
    if (const auto env = environmentDataDir()) return {{*env, kEnv}};
    std::vector<DataDirCandidate> c;
    for (const auto& root : shareRoots()) c.push_back({root.dir / "data", root.origin});
    return c;
}

fs::path firstDataDir(const std::vector<DataDirCandidate>& candidates) {
    for (const auto& c : candidates) {
        if (isDataDir(c.dir)) return c.dir;
    }
    std::string tried;
    for (const auto& c : candidates) tried += fmt::format("\n  {} ({})", c.dir.string(), c.origin);
    throw InputError(fmt::format(
        "dctwin data folder (with catalog/ and coolants/) not found; tried:{}\nset {} to the "
        "folder that holds catalog/, coolants/, weather/ and traces/ (installed: "
        "<prefix>/{}/data)",
        tried, kEnv, DCTWIN_INSTALL_SHARE_DIR));
}

fs::path dataDir() { return firstDataDir(dataDirCandidates()); }

fs::path scenariosDir() {
    std::vector<DataDirCandidate> tried;
    std::error_code ec;
    if (const auto env = environmentDataDir()) {
        tried.push_back({*env / ".." / "scenarios", fmt::format("beside {}", kEnv)});
    }
    for (const auto& root : shareRoots()) tried.push_back({root.dir / "scenarios", root.origin});
    for (const auto& c : tried) {
        if (fs::is_directory(c.dir, ec)) return c.dir.lexically_normal();
    }
    std::string list;
    for (const auto& c : tried) list += fmt::format("\n  {} ({})", c.dir.string(), c.origin);
    throw InputError(fmt::format("dctwin scenarios folder not found; tried:{}", list));
}

fs::path dataFile(const fs::path& relative) {
    if (relative.is_absolute()) return relative;
    auto it = relative.begin();
    fs::path rest;
    if (it != relative.end() && *it == "data") ++it;
    for (; it != relative.end(); ++it) rest /= *it;
    return dataDir() / rest;
}

}  // namespace dctwin
