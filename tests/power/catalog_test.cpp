// Catalog loading, sources, overrides and error messages with JSON paths.
#include "power/catalog.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/json.h"
#include "test_util.h"

namespace dctwin::power {
namespace {

using test::catalog;
using test::expectInputError;

TEST(power_Catalog, LoadsEveryCategoryAndEntry) {
    const Catalog& c = catalog();
    const auto racks = c.names("racks");
    EXPECT_EQ(racks, (std::vector<std::string>{"gb200_nvl72", "gb300_nvl72", "vera_rubin_nvl144"}));
    for (const char* cat : {"psu_curves", "ups", "transformers", "busways", "rack_feeds",
                            "breakers", "generators", "bess", "switches", "nics", "optics"}) {
        EXPECT_FALSE(c.names(cat).empty()) << cat;
    }
}

TEST(power_Catalog, Gb300DefaultsMatchDomainFacts) {
    // domain-facts A1-A5: 72 B300 at 1,400 W, 36 Grace, 18 compute trays, 9 switch trays,
    // 8 shelves of 6 × 5.5 kW, 65 J per GPU, ~135 kW TDP, ~90 % to liquid.
    const RackSpec r = catalog().rack("gb300_nvl72");
    EXPECT_EQ(r.gpus, 72);
    EXPECT_DOUBLE_EQ(r.gpu_tdp, 1400.0);
    EXPECT_EQ(r.cpus, 36);
    EXPECT_EQ(r.compute_trays, 18);
    EXPECT_EQ(r.switch_trays, 9);
    EXPECT_EQ(r.psu_shelves, 8);
    EXPECT_EQ(r.psus_per_shelf, 6);
    EXPECT_DOUBLE_EQ(r.shelfRating(), 33000.0);
    EXPECT_DOUBLE_EQ(r.storage_per_gpu, 65.0);
    EXPECT_DOUBLE_EQ(r.tdp, 135000.0);
    EXPECT_DOUBLE_EQ(r.heat_to_liquid_fraction, 0.9);
    EXPECT_FALSE(r.provisional);
    EXPECT_TRUE(catalog().rack("vera_rubin_nvl144").provisional);
}

TEST(power_Catalog, EveryNumberHasASource) {
    const Catalog& c = catalog();
    for (const auto& cat : c.categories()) {
        for (const auto& name : c.names(cat)) {
            const Json& e = c.entry(cat, name);
            for (const auto& item : e.items()) {
                if (item.key() == "source" ||
                    !(item.value().is_number() || item.value().is_array()))
                    continue;
                ASSERT_TRUE(e["source"].contains(item.key()))
                    << cat << "/" << name << "/" << item.key();
                EXPECT_GE(e["source"][item.key()].get<std::string>().size(), 8u);
            }
        }
    }
}

TEST(power_Catalog, OverridesMergeAndKeepOtherFields) {
    const Json ref = parseJson(R"({"model": "gb300_nvl72", "gpu_tdp_W": 1300})", "scenario");
    const RackSpec r = catalog().rack(JsonView(ref, "/it/racks/0"));
    EXPECT_DOUBLE_EQ(r.gpu_tdp, 1300.0);
    EXPECT_EQ(r.gpus, 72);
    EXPECT_EQ(r.name, "gb300_nvl72");
}

TEST(power_Catalog, UnknownOverrideKeyNamesPathAndNearestKey) {
    const Json ref = parseJson(R"({"model": "gb300_nvl72", "gpu_tdp_w": 1300})", "scenario");
    expectInputError([&] { catalog().rack(JsonView(ref, "/it/racks/0")); },
                     {"/it/racks/0", "gpu_tdp_w", "gpu_tdp_W"});
}

TEST(power_Catalog, UnknownModelListsValidChoices) {
    const Json ref = parseJson(R"({"model": "gb300_nvl36"})", "scenario");
    expectInputError(
        [&] { catalog().rack(JsonView(ref, "/it/racks/0")); },
        {"/it/racks/0/model", "gb300_nvl36", "gb200_nvl72", "gb300_nvl72", "vera_rubin_nvl144"});
}

TEST(power_Catalog, OutOfRangeOverrideNamesPath) {
    const Json ref = parseJson(R"({"model": "gb300_nvl72", "gpu_tdp_W": -5})", "scenario");
    expectInputError([&] { catalog().rack(JsonView(ref, "/it/racks/1")); },
                     {"/it/racks/1/gpu_tdp_W"});
    const Json wrong_type = parseJson(R"({"model": "gb300_nvl72", "gpus": "many"})", "scenario");
    expectInputError([&] { catalog().rack(JsonView(wrong_type, "/it/racks/2")); },
                     {"/it/racks/2/gpus"});
}

TEST(power_Catalog, UncitedNumberInACatalogFileIsRejected) {
    const auto dir = std::filesystem::temp_directory_path() / "dctwin_power_catalog_test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "psu_curves.json")
        << R"({"psu_curves": {"x": {"points": [[0.5, 0.97]], "source": {}}}})";
    expectInputError([&] { Catalog::load(dir); }, {"psu_curves.json", "/psu_curves/x", "points"});
    std::filesystem::remove_all(dir);
}

TEST(power_PiecewiseLinear, InterpolatesHoldsFlatAndSharesItsPointsWithCopies) {
    const PiecewiseLinear f({{0.1, 0.90}, {0.5, 0.96}, {1.0, 0.94}});
    EXPECT_DOUBLE_EQ(f(0.0), 0.90);                        // held flat below
    EXPECT_DOUBLE_EQ(f(0.3), 0.90 + (0.96 - 0.90) * 0.5);  // halfway, by hand
    EXPECT_DOUBLE_EQ(f(0.75), 0.96 + (0.94 - 0.96) * 0.5);
    EXPECT_DOUBLE_EQ(f(2.0), 0.94);  // held flat above
    // A campus copies a rack record's PSU curve into every rack model: the copies must read
    // one set of points (one cache line for thousands of racks), not a vector each.
    const PiecewiseLinear copy = f;
    EXPECT_EQ(copy.points().data(), f.points().data());
    EXPECT_DOUBLE_EQ(copy(0.75), f(0.75));
    const PiecewiseLinear none;
    EXPECT_TRUE(none.points().empty());
    EXPECT_THROW(none(0.5), ModelError);
    EXPECT_THROW(PiecewiseLinear({{0.5, 1.0}, {0.5, 2.0}}), ModelError);
}

}  // namespace
}  // namespace dctwin::power
