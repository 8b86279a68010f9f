#include "gui/scenario_form.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>

#include "gui/scenario_tree_model.h"

namespace dctwin::gui {
namespace {

Json scenario() {
    return Json::parse(R"({
        "name": "form test",
        "site": {"weather": "data/weather/USA_VA_Leesburg.Exec.epw"},
        "it": {"racks": [{"model": "gb300_nvl72", "count": 64}]},
        "cooling": {"coolant": "PG25", "tcs_supply_temp_C": 35, "cdu": {"racks_per_cdu": 8},
                    "heat_rejection": {"type": "dry_cooler", "units": 4}},
        "study": {"kind": "annual", "hours": 48, "output_interval_min": 10}
    })");
}

TEST(ScenarioForm, ShowsTheScenario) {
    ScenarioTreeModel m;
    m.setJson(scenario());
    ScenarioForm f(&m);
    EXPECT_EQ(f.nameEdit()->text(), QStringLiteral("form test"));
    EXPECT_EQ(f.racksSpin()->value(), 64);
    EXPECT_EQ(f.rackModelCombo()->currentText(), QStringLiteral("gb300_nvl72"));
    EXPECT_EQ(f.coolantCombo()->currentText(), QStringLiteral("PG25"));
    EXPECT_DOUBLE_EQ(f.supplyTempSpin()->value(), 35.0);
    EXPECT_EQ(f.racksPerCduSpin()->value(), 8);
    EXPECT_EQ(f.heatRejectionCombo()->currentText(), QStringLiteral("dry_cooler"));
    EXPECT_EQ(f.weatherEdit()->text(), QStringLiteral("data/weather/USA_VA_Leesburg.Exec.epw"));
    EXPECT_EQ(f.studyKindCombo()->currentText(), QStringLiteral("annual"));
    EXPECT_DOUBLE_EQ(f.daysSpin()->value(), 2.0);              // from "hours": 48
    EXPECT_DOUBLE_EQ(f.outputIntervalSpin()->value(), 600.0);  // from output_interval_min
    // Displaying changed nothing.
    EXPECT_EQ(m.toJson(), scenario());
}

TEST(ScenarioForm, HeatRejectionChoiceChangesTheJson) {
    ScenarioTreeModel m;
    m.setJson(scenario());
    ScenarioForm f(&m);
    f.heatRejectionCombo()->setCurrentText(QStringLiteral("cooling_tower"));
    const Json j = m.toJson();
    EXPECT_EQ(j["cooling"]["heat_rejection"]["type"], "cooling_tower");
    EXPECT_EQ(j["cooling"]["heat_rejection"]["units"], 4);  // siblings kept
    Json expected = scenario();
    expected["cooling"]["heat_rejection"]["type"] = "cooling_tower";
    EXPECT_EQ(j, expected);
}

TEST(ScenarioForm, FieldsWriteTheirKeysWithTypes) {
    ScenarioTreeModel m;
    m.setJson(scenario());
    ScenarioForm f(&m);
    f.racksSpin()->setValue(128);
    f.racksPerCduSpin()->setValue(4);
    f.supplyTempSpin()->setValue(32.5);
    f.upsTopologyCombo()->setCurrentText(QStringLiteral("2N"));
    const Json j = m.toJson();
    EXPECT_TRUE(j["it"]["racks"][0]["count"].is_number_integer());
    EXPECT_EQ(j["it"]["racks"][0]["count"], 128);
    EXPECT_EQ(j["cooling"]["cdu"]["racks_per_cdu"], 4);
    EXPECT_DOUBLE_EQ(j["cooling"]["tcs_supply_temp_C"].get<double>(), 32.5);
    EXPECT_EQ(j["power"]["ups"]["topology"], "2N");  // created with its parents
}

TEST(ScenarioForm, StudyLengthIsWrittenOnce) {
    ScenarioTreeModel m;
    m.setJson(scenario());
    ScenarioForm f(&m);
    f.daysSpin()->setValue(7.0);
    Json j = m.toJson();
    EXPECT_EQ(j["study"]["days"], 7);
    EXPECT_FALSE(j["study"].contains("hours"));  // the loader rejects two lengths
    f.outputIntervalSpin()->setValue(300.0);
    j = m.toJson();
    EXPECT_EQ(j["study"]["output_interval_s"], 300);
    EXPECT_FALSE(j["study"].contains("output_interval_min"));
    // A design point has no length; going back to annual restores one.
    f.studyKindCombo()->setCurrentText(QStringLiteral("design_point"));
    j = m.toJson();
    EXPECT_EQ(j["study"]["kind"], "design_point");
    EXPECT_FALSE(j["study"].contains("days"));
    EXPECT_FALSE(f.daysSpin()->isEnabled());
    f.studyKindCombo()->setCurrentText(QStringLiteral("transient"));
    j = m.toJson();
    EXPECT_EQ(j["study"]["days"], 7);
    EXPECT_TRUE(f.daysSpin()->isEnabled());
}

TEST(ScenarioForm, TreeEditsShowInTheForm) {
    ScenarioTreeModel m;
    m.setJson(scenario());
    ScenarioForm f(&m);
    ASSERT_TRUE(m.setData(m.indexForPointer("/cooling/heat_rejection/type", 1),
                          QStringLiteral("adiabatic_cooler")));
    EXPECT_EQ(f.heatRejectionCombo()->currentText(), QStringLiteral("adiabatic_cooler"));
    ASSERT_TRUE(m.setData(m.indexForPointer("/it/racks/0/count", 1), QStringLiteral("1390")));
    EXPECT_EQ(f.racksSpin()->value(), 1390);
}

TEST(ScenarioForm, CreatesTheFirstRackGroupWhenMissing) {
    ScenarioTreeModel m;
    m.setJson(Json{{"name", "empty"}});
    ScenarioForm f(&m);
    f.racksSpin()->setValue(16);
    const Json j = m.toJson();
    ASSERT_TRUE(j["it"]["racks"].is_array());
    EXPECT_EQ(j["it"]["racks"][0]["count"], 16);
    EXPECT_EQ(j["it"]["racks"][0]["model"], "gb300_nvl72");
}

TEST(ScenarioForm, DataPathsAreStoredRelativeWherePossible) {
    const std::filesystem::path root(DCTWIN_SOURCE_DIR);
    EXPECT_EQ(scenarioDataPath(root / "data/weather/x.epw", root / "scenarios"),
              "data/weather/x.epw");
    EXPECT_EQ(scenarioDataPath(root / "scenarios/w/x.epw", root / "scenarios"), "w/x.epw");
    EXPECT_EQ(scenarioDataPath("/nonexistent-dir/x.epw", root / "scenarios"),
              "/nonexistent-dir/x.epw");
    EXPECT_TRUE(jsonNumber(365.0).is_number_integer());
    EXPECT_TRUE(jsonNumber(0.5).is_number_float());
}

}  // namespace
}  // namespace dctwin::gui
