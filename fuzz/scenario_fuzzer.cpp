// libFuzzer target: scenario text → parseJson → facility::parseScenario → validateModel, which
// is what `dctwin validate` does. Bad input must end in a dctwin::Error (exit 2 in the CLI);
// any other exception, a crash, a leak or undefined behaviour is a finding.
//
//   CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug \
//       -DDCTWIN_BUILD_GUI=OFF -DDCTWIN_BUILD_TESTS=OFF -DDCTWIN_FUZZ=ON
//   cmake --build build-fuzz --target scenario_fuzzer
//   build-fuzz/fuzz/scenario_fuzzer -dict=fuzz/scenario.dict -max_len=65536 \
//       /tmp/corpus-scenario scenarios/
// Relative data paths (weather, traces) resolve against the repository's scenarios/ folder.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/errors.h"
#include "core/json.h"
#include "facility/scenario.h"
#include "facility/twin.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const dctwin::Json j = dctwin::parseJson(text, "fuzz.json");
        const dctwin::facility::ScenarioSpec s = dctwin::facility::parseScenario(
            j, std::string(DCTWIN_SOURCE_DIR) + "/scenarios", "fuzz.json");
        dctwin::facility::validateModel(s);
    } catch (const dctwin::Error&) {
        // InputError / ModelError: the expected outcome for bad input.
    } catch (...) {
        std::abort();  // any other exception escaping to the CLI would be exit 1 without a path
    }
    return 0;
}
