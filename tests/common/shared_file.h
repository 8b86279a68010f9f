#pragma once
// A file that several test processes write with the same contents (ctest runs tests in
// parallel, each in its own process): written under a name of its own and renamed over the
// shared one, which is atomic on POSIX, so a reader never sees it half written. Writing the
// shared name directly let one test read the file while another had just truncated it (seen in
// CI: "syntax error ... unexpected end of input").
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace dctwin::testing {

inline std::filesystem::path writeSharedFile(const std::filesystem::path& path,
                                             std::string_view text) {
    auto tmp = path;
    tmp += "." + std::to_string(::getpid()) + ".tmp";
    {
        std::ofstream f(tmp);
        f << text;
    }
    std::filesystem::rename(tmp, path);
    return path;
}

}  // namespace dctwin::testing
