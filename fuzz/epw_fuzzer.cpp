// libFuzzer target for the EPW weather reader (core/weather/epw.h). Seed it with the shipped
// files: build-fuzz/fuzz/epw_fuzzer -max_len=2000000 /tmp/corpus-epw data/weather/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/errors.h"
#include "core/weather/epw.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const auto w = dctwin::weather::parseEpw(
            std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.epw");
        // Exercise the accessors a run uses.
        (void)w.at(0.0);
        (void)w.at(1e9);
        (void)w.designConditions();
    } catch (const dctwin::InputError&) {
    } catch (...) {
        std::abort();
    }
    return 0;
}
