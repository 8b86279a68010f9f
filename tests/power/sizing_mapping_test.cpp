// Issue 15: sizing by what is actually on each element — mixed rack models, rows mapped onto
// distributed-redundant UPS systems, LV mains after a failure. Every expected number is worked
// out by hand in the comments from catalog ratings and the racks' design powers.
#include <gtest/gtest.h>

#include <string>

#include "power/rack.h"
#include "power/sizing.h"
#include "test_util.h"

namespace dctwin::power {
namespace {

using test::catalog;

SizingInput mixedHall(bool gb300_first) {
    SizingInput in;
    const RackModelCount gb{catalog().rack("gb300_nvl72"), 32};
    const RackModelCount vr{catalog().rack("vera_rubin_nvl144"), 32};
    in.rack_models = gb300_first ? std::vector{gb, vr} : std::vector{vr, gb};
    return in;
}

TEST(power_SizingMapping, RowsOverSystemsWorstShareWithOneLost) {
    // 8 equal rows, 4 systems (4N/3): 16 half-rows, 4 per system (1/4 each). A lost system's 4
    // rows move whole onto its 3 partners, so one partner takes two of them (pigeonhole): it
    // then carries 4 + 2 = 6 half-rows = 3/8 of the load — the best any mapping can do, and
    // 9/8 of the even spread's 1/3.
    const SystemMapping m8 = mapRowsToSystems(std::vector<double>(8, 1.0), 4);
    EXPECT_NEAR(m8.worst_normal_share, 0.25, 1e-12);
    EXPECT_NEAR(m8.worst_failure_share, 3.0 / 8.0, 1e-12);
    ASSERT_EQ(m8.row_systems.size(), 8u);
    for (const auto& [a, b] : m8.row_systems) EXPECT_NE(a, b);
    // 12 equal rows: 6 half-rows per system, 2 onto each partner: 8/24 = 1/3, the even spread.
    EXPECT_NEAR(mapRowsToSystems(std::vector<double>(12, 1.0), 4).worst_failure_share, 1.0 / 3.0,
                1e-12);
    // 2 rows on 4 systems: each system holds half of one row; losing one puts that whole row
    // (1/2 of the load) on its partner.
    EXPECT_NEAR(mapRowsToSystems({1.0, 1.0}, 4).worst_failure_share, 0.5, 1e-12);
    // 2N: the surviving system carries everything.
    EXPECT_NEAR(mapRowsToSystems({1.0, 2.0, 3.0}, 2).worst_failure_share, 1.0, 1e-12);
    // Unequal rows (4 of 1,460 kW and 4 of 1,077 kW, the mixed hall below): every system
    // carries T/4 = 2,537 kW; a lost system holds 4 half-rows (2 × 730, 2 × 538 kW) for 3
    // partners, so one partner takes two, at least the two smaller: 2,537 + 1,077 = 3,614 kW
    // of T = 10,148 kW = 35.6 %.
    const SystemMapping mix =
        mapRowsToSystems({1076.9, 1076.9, 1076.9, 1076.9, 1460.0, 1460.0, 1460.0, 1460.0}, 4);
    EXPECT_NEAR(mix.worst_normal_share, 0.25, 1e-9);
    EXPECT_NEAR(mix.worst_failure_share, (2536.9 + 1076.9) / 10147.6, 1e-6);
}

TEST(power_SizingMapping, MixedHallSizesEveryModelOnItsOwnInEitherOrder) {
    // Rack AC power at full utilization (RackPowerModel, the bottom-up budgets of racks.json):
    // GB300 134.6 kW (131.2 kW DC), Vera Rubin 182.5 kW (177.7 kW DC).
    const double P_gb = RackPowerModel(catalog().rack("gb300_nvl72")).evaluate(1.0).it_power;
    const double P_vr = RackPowerModel(catalog().rack("vera_rubin_nvl144")).evaluate(1.0).it_power;
    ASSERT_NEAR(P_gb, 134.6e3, 0.1e3);
    ASSERT_NEAR(P_vr, 182.5e3, 0.1e3);
    const SizingResult a = sizeElectrical(mixedHall(true), catalog());
    const SizingResult b = sizeElectrical(mixedHall(false), catalog());
    std::printf("%s", a.format().c_str());
    for (const SizingResult* r : {&a, &b}) {
        // Feeds, 2N, 80 % after a failover: GB300 189.2 A → 250 A (200 A × 0.8 = 160 A is
        // short); Vera Rubin 256.5 A → 400 A (300 A × 0.8 = 240 A is short).
        const SizingRow& fg = r->row("rack_feed", "gb300_nvl72");
        const SizingRow& fv = r->row("rack_feed", "vera_rubin_nvl144");
        EXPECT_NEAR(fg.design_current, 189.2, 0.1);
        EXPECT_NEAR(fv.design_current, 256.5, 0.1);
        EXPECT_DOUBLE_EQ(fg.rating, 250.0);
        EXPECT_DOUBLE_EQ(fv.rating, 400.0);
        EXPECT_EQ(fg.count, 64);  // 32 racks × A and B
        EXPECT_EQ(fv.count, 64);
        // Busways, rows of 8 racks of one model: GB300 8 × 189.2 = 1,513 A → 2,000 A (1,600 A
        // × 0.8 = 1,280 A is short); Vera Rubin 8 × 256.5 = 2,052 A → 3,200 A (2,500 A × 0.8 =
        // 2,000 A is short). 4 rows of each, A and B: 8 busways each.
        const SizingRow& bg = r->row("busway", "gb300_nvl72");
        const SizingRow& bv = r->row("busway", "vera_rubin_nvl144");
        EXPECT_NEAR(bg.design_current, 1513.3, 0.5);
        EXPECT_NEAR(bv.design_current, 2051.7, 0.5);
        EXPECT_DOUBLE_EQ(bg.rating, 2000.0);
        EXPECT_DOUBLE_EQ(bv.rating, 3200.0);
        EXPECT_EQ(bg.count, 8);
        EXPECT_EQ(bv.count, 8);
        // Shelves, 2N at the 50 V bus: GB300 131.2 kW / 50 V = 2,625 A on 660 A (33 kW)
        // shelves: ⌈2,625/660⌉ = 4 a side, 8 a rack, 256 in all; Vera Rubin 3,554 A on
        // 2,200 A (110 kW) shelves: ⌈3,554/2,200⌉ = 2 a side, 4 a rack, 128; one side lost:
        // 3,554/4,400 = 80.8 %.
        EXPECT_EQ(r->row("psu_shelf", "gb300_nvl72").count, 256);
        const SizingRow& sv = r->row("psu_shelf", "vera_rubin_nvl144");
        EXPECT_EQ(sv.count, 128);
        EXPECT_NEAR(sv.failure_loading, 0.808, 0.001);
        // The hall's IT: (32 × 134.6 + 32 × 182.5) kW × 1.1 growth = 11,162 kW.
        EXPECT_NEAR(r->it_design, 11162e3, 5e3);
        // Generators (2.5 MW, N+1, 80 %): the facility is at least IT + 12 % cooling =
        // 12,502 kW and at most 5 % above it (UPS, transformers, distribution) = 13,127 kW, so
        // N = ⌈12.50/2.0⌉ = ⌈13.13/2.0⌉ = 7 and 8 installed; with one lost the 7 left carry at
        // most 13.13/17.5 = 75 %.
        const SizingRow& g = r->row("generator");
        EXPECT_EQ(g.count, 8);
        EXPECT_LE(g.failure_loading, 0.751);
        EXPECT_GE(r->facility_design, 12502e3);
        EXPECT_LE(r->facility_design, 13127e3);
        // UPS 4N/3, 1.5 MW: 8 rows on 4 systems, worst share 35.6 % with one lost (above).
        // P_UPS ≈ 11,162 kW + ~0.5 % distribution ≈ 11.2 MW: 0.356 × 11.2 = 3.99 MW → 3 per
        // system (2.66), 12 in all, at 3.99/4.5 ≈ 88.7 % (the even spread says 83 %).
        const SizingRow& u = r->row("ups");
        EXPECT_EQ(u.count, 12);
        EXPECT_NEAR(u.failure_loading, 0.887, 0.005);
        EXPECT_NE(u.governing_case.find("lost"), std::string::npos) << u.governing_case;
    }
    // The same table whatever order the racks are listed in.
    ASSERT_EQ(a.rows.size(), b.rows.size());
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
        SCOPED_TRACE(a.rows[i].element + " " + a.rows[i].rack_model);
        EXPECT_EQ(a.rows[i].element, b.rows[i].element);
        EXPECT_EQ(a.rows[i].model, b.rows[i].model);
        EXPECT_EQ(a.rows[i].count, b.rows[i].count);
        EXPECT_DOUBLE_EQ(a.rows[i].normal_loading, b.rows[i].normal_loading);
        EXPECT_DOUBLE_EQ(a.rows[i].failure_loading, b.rows[i].failure_loading);
    }
}

TEST(power_SizingMapping, UpsCountFollowsTheWorstSystemNotTheEvenSpread) {
    // 64 GB300 racks, 10 % growth, no fabric: P_IT = 64 × 134.6 × 1.1 = 9,477 kW, plus ~0.25 %
    // of feed and busway loss: P_UPS ≈ 9,500 kW. 8 rows on 4 systems: worst 3/8 with one lost.
    SizingInput in;
    in.rack_models = {{catalog().rack("gb300_nvl72"), 64}};
    const SizingResult r15 = sizeElectrical(in, catalog());
    // 1.5 MW: 3/8 × 9,500 = 3,562 kW → 3 per system (2.4), 12; 3,562/4,500 = 79.2 %; the even
    // spread's 1/3 would say 70.4 %.
    EXPECT_EQ(r15.row("ups").count, 12);
    EXPECT_NEAR(r15.row("ups").failure_loading, 0.792, 0.003);
    EXPECT_NEAR(r15.row("ups").normal_loading, 0.25 * 9500.0 / 4500.0, 0.003);
    // 1.2 MW: the even spread's m = ⌈9,500/(3 × 1,200)⌉ = 3 would reach 3,562/3,600 = 98.9 %
    // with one system lost — within 100 % but not by the rows; m = 3 passes. Growth 15 %:
    // P_UPS ≈ 9,934 kW, 3/8 → 3,725 kW > 3,600 kW: sizing takes 4 per system (16) at 77.6 %,
    // and the rule says what 3 would have reached (103.5 %).
    in.ups_model = "static_1200kw";
    in.growth_margin = 0.15;
    const SizingResult r12 = sizeElectrical(in, catalog());
    EXPECT_EQ(r12.row("ups").count, 16);
    EXPECT_NEAR(r12.row("ups").failure_loading, 0.776, 0.003);
    EXPECT_NE(r12.row("ups").count_rule.find("m=3 would reach 103."), std::string::npos)
        << r12.row("ups").count_rule;
}

TEST(power_SizingMapping, LvMainsAfterAFailureCarryWhatTheirTransformerCarries) {
    // Issue 15: LV mains reported the normal loading as their failure loading (as if N).
    // 96 racks = 12 rows on 4 systems: the even spread holds (1/4 normal, 1/3 with one lost),
    // so each main carries 4/3 of its normal current after a transformer system is lost.
    SizingInput in;
    in.rack_models = {{catalog().rack("gb300_nvl72"), 96}};
    const SizingResult r = sizeElectrical(in, catalog());
    const SizingRow& lv = r.row("lv_switchgear");
    EXPECT_NEAR(lv.failure_loading / lv.normal_loading, 4.0 / 3.0, 1e-9);
    EXPECT_NE(lv.failure_case.find("lost"), std::string::npos) << lv.failure_case;
    // 8 rows, all LV load on the UPS (cooling on UPS, nothing else): the worst transformer
    // system goes from 1/4 to 3/8 of the load, 1.5 × its normal current.
    SizingInput all;
    all.rack_models = {{catalog().rack("gb300_nvl72"), 64}};
    all.cooling_on_ups_fraction = 1.0;
    const SizingResult r8 = sizeElectrical(all, catalog());  // keep it: row() is a reference
    const SizingRow& lv8 = r8.row("lv_switchgear");
    EXPECT_NEAR(lv8.failure_loading / lv8.normal_loading, 1.5, 1e-9);
}

TEST(power_SizingMapping, AvailableFaultCurrentOnEachLvBus) {
    // liquid_2500kva: 2.5 MVA, 6 % impedance (IEC 60076-5 minimum, transformers.json), 415 V:
    // I_sc = 2,500,000 / (√3 × 415 × 0.06) = 2,500,000 / 43.13 = 57,966 A ≈ 58.0 kA.
    SizingInput in;
    in.rack_models = {{catalog().rack("gb300_nvl72"), 64}};
    const SizingResult r = sizeElectrical(in, catalog());
    EXPECT_NEAR(r.row("lv_switchgear").fault_current, 57966.0, 1.0);
    EXPECT_NEAR(r.row("transformer").fault_current, 57966.0, 1.0);
    // 3.5 MVA at 7 %: 3,500,000 / (718.80 × 0.07) = 69,560 A.
    in.transformer_model = "liquid_3500kva";
    EXPECT_NEAR(sizeElectrical(in, catalog()).row("lv_switchgear").fault_current, 69560.0, 2.0);
    EXPECT_EQ(r.row("ups").fault_current, 0.0);  // not computed on the UPS output
}

TEST(power_SizingMapping, BadRackCountsAreInputErrors) {
    SizingInput in;
    in.rack_models = {{catalog().rack("gb300_nvl72"), 0}};
    test::expectInputError([&] { sizeElectrical(in, catalog()); },
                           {"gb300_nvl72", "0 racks", "at least 1"});
}

}  // namespace
}  // namespace dctwin::power
