#include "gui/scenario_form.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QLineEdit>

#include "core/data_dir.h"
#include "core/units.h"
#include "facility/scenario.h"
#include "gui/display_units.h"
#include "gui/scenario_tree_model.h"

namespace dctwin::gui {
namespace {

namespace fs = std::filesystem;
using F = ScenarioForm::Field;

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

// What a user does: type the text, then press Return (editingFinished).
void type(ScenarioForm& f, F field, const QString& text) {
    f.lineEdit(field)->setText(text);
    emit f.lineEdit(field)->editingFinished();
}

void choose(ScenarioForm& f, F field, const QString& value) {
    const int i = f.combo(field)->findData(value);
    ASSERT_GE(i, 0) << value.toStdString() << " is not offered";
    f.combo(field)->setCurrentIndex(i);
}

QStringList offered(const QComboBox* c) {
    QStringList out;
    for (int i = 0; i < c->count(); ++i) {
        if (c->itemData(i).typeId() == QMetaType::QString) out << c->itemData(i).toString();
    }
    return out;
}

QStringList declared(const std::string& pointer) {
    QStringList out;
    for (const auto& c : scenarioKeySpec(pointer)->choices) out << QString::fromStdString(c);
    return out;
}

TEST(ScenarioForm, ShowsTheScenario) {
    ScenarioTreeModel m;
    m.setJson(scenario());
    ScenarioForm f(&m);
    EXPECT_EQ(f.lineEdit(F::Name)->text(), QStringLiteral("form test"));
    EXPECT_EQ(f.lineEdit(F::Racks)->text(), QStringLiteral("64"));
    EXPECT_EQ(f.combo(F::RackModel)->currentData().toString(), QStringLiteral("gb300_nvl72"));
    EXPECT_EQ(f.combo(F::Coolant)->currentData().toString(), QStringLiteral("PG25"));
    EXPECT_EQ(f.lineEdit(F::SupplyTemp)->text(), QStringLiteral("35"));
    EXPECT_EQ(f.lineEdit(F::RacksPerCdu)->text(), QStringLiteral("8"));
    EXPECT_EQ(f.combo(F::HeatRejection)->currentData().toString(), QStringLiteral("dry_cooler"));
    EXPECT_EQ(f.lineEdit(F::Weather)->text(),
              QStringLiteral("data/weather/USA_VA_Leesburg.Exec.epw"));
    EXPECT_EQ(f.combo(F::StudyKind)->currentData().toString(), QStringLiteral("annual"));
    // Lengths and intervals in the unit the file uses, not converted to days.
    EXPECT_EQ(f.lineEdit(F::Length)->text(), QStringLiteral("48"));
    EXPECT_EQ(f.combo(F::Length)->currentText(), QStringLiteral("h"));
    EXPECT_EQ(f.lineEdit(F::OutputInterval)->text(), QStringLiteral("10"));
    EXPECT_EQ(f.combo(F::OutputInterval)->currentText(), QStringLiteral("min"));
    EXPECT_FALSE(f.hasInvalidInput());
    // Displaying and committing untouched fields changed nothing.
    f.commitEdits();
    EXPECT_EQ(m.toJson(), scenario());
}

TEST(ScenarioForm, AbsentKeysShowTheModelDefaultNotThePreviousFile) {
    // Issue 13: open a scenario with 4 racks per CDU and 40 °C, then one without those keys.
    ScenarioTreeModel m;
    Json a = scenario();
    a["cooling"]["cdu"]["racks_per_cdu"] = 4;
    a["cooling"]["tcs_supply_temp_C"] = 40;
    a["power"]["ups"]["topology"] = "2N";
    m.setJson(a);
    ScenarioForm f(&m);
    EXPECT_EQ(f.lineEdit(F::RacksPerCdu)->text(), QStringLiteral("4"));
    Json b = scenario();
    b["cooling"].erase("tcs_supply_temp_C");
    b["cooling"].erase("cdu");
    b["cooling"].erase("coolant");
    m.setJson(b);
    f.reset();
    // Empty text with the model's default as the (greyed) placeholder, from the spec.
    EXPECT_EQ(f.lineEdit(F::RacksPerCdu)->text(), QString());
    EXPECT_EQ(f.lineEdit(F::RacksPerCdu)->placeholderText(), QStringLiteral("8 (default)"));
    EXPECT_EQ(f.lineEdit(F::SupplyTemp)->text(), QString());
    EXPECT_EQ(f.lineEdit(F::SupplyTemp)->placeholderText(), QStringLiteral("35 °C (default)"));
    EXPECT_FALSE(f.combo(F::UpsTopology)->currentData().isValid());  // the "(default)" entry
    EXPECT_TRUE(f.combo(F::UpsTopology)->currentText().endsWith(QStringLiteral("(default)")));
    EXPECT_TRUE(f.combo(F::Coolant)->currentText().startsWith(QStringLiteral("PG25")));
    // And the form wrote nothing: the run uses what the file says.
    f.commitEdits();
    EXPECT_EQ(m.toJson(), b);
}

TEST(ScenarioForm, OutOfRangeInputIsRefusedAndNothingChanges) {
    ScenarioTreeModel m;
    m.setJson(scenario());
    ScenarioForm f(&m);
    // 100 °C: the model's range is 15–50 °C (scenarioSpec), not the old spin box's 5–70.
    type(f, F::SupplyTemp, QStringLiteral("100"));
    EXPECT_EQ(m.toJson(), scenario());
    EXPECT_EQ(f.lineEdit(F::SupplyTemp)->text(), QStringLiteral("100"));  // not clamped
    EXPECT_TRUE(f.fieldError(F::SupplyTemp).contains(QStringLiteral("15 to 50 °C")))
        << f.fieldError(F::SupplyTemp).toStdString();
    ASSERT_EQ(f.invalidInputs().size(), 1);
    EXPECT_TRUE(f.invalidInputs().front().contains(QStringLiteral("/cooling/tcs_supply_temp_C")));
    // "-5" racks is not 5 racks, "abc" is not ignored, 2.5 racks is not 2.
    type(f, F::Racks, QStringLiteral("-5"));
    EXPECT_TRUE(f.fieldError(F::Racks).contains(QStringLiteral("out of range")));
    type(f, F::RacksPerCdu, QStringLiteral("abc"));
    EXPECT_TRUE(f.fieldError(F::RacksPerCdu).contains(QStringLiteral("not a number")));
    type(f, F::Length, QStringLiteral("2.5e9"));
    EXPECT_TRUE(f.fieldError(F::Length).contains(QStringLiteral("out of range")));
    // The least length, 1 s, said in seconds too: in the file's hours it read
    // "0.000277778 to 87600 h" (in days, "1.15741e-05 to 3650 days").
    EXPECT_TRUE(f.fieldError(F::Length).contains(QStringLiteral("0.000277778 h (1 s) to 87600 h")))
        << f.fieldError(F::Length).toStdString();
    EXPECT_EQ(m.toJson(), scenario());
    EXPECT_EQ(f.invalidInputs().size(), 4);
    // Another edit refreshes the form; the refused text stays in view with its reason.
    ASSERT_TRUE(m.setValue("/name", "renamed"));
    EXPECT_EQ(f.lineEdit(F::SupplyTemp)->text(), QStringLiteral("100"));
    EXPECT_FALSE(f.fieldError(F::SupplyTemp).isEmpty());
    // A valid value is written and the refusal goes.
    type(f, F::SupplyTemp, QStringLiteral("40"));
    EXPECT_TRUE(f.fieldError(F::SupplyTemp).isEmpty());
    EXPECT_EQ(m.toJson()["cooling"]["tcs_supply_temp_C"], 40);
    // Opening another scenario forgets typed text.
    m.setJson(scenario());
    f.reset();
    EXPECT_FALSE(f.hasInvalidInput());
    EXPECT_EQ(f.lineEdit(F::Racks)->text(), QStringLiteral("64"));
}

TEST(ScenarioForm, ListsOfferOnlyWhatTheModelAccepts) {
    ScenarioTreeModel m;
    m.setJson(scenario());
    ScenarioForm f(&m);
    EXPECT_EQ(offered(f.combo(F::HeatRejection)), declared("/cooling/heat_rejection/type"));
    EXPECT_FALSE(offered(f.combo(F::HeatRejection)).contains(QStringLiteral("chiller")));
    EXPECT_FALSE(
        offered(f.combo(F::HeatRejection)).contains(QStringLiteral("closed_cooling_tower")));
    EXPECT_EQ(offered(f.combo(F::UpsTopology)), declared("/power/ups/topology"));
    EXPECT_FALSE(offered(f.combo(F::UpsTopology)).contains(QStringLiteral("block_redundant")));
    EXPECT_EQ(offered(f.combo(F::Coolant)), declared("/cooling/coolant"));
    EXPECT_EQ(offered(f.combo(F::StudyKind)), declared("/study/kind"));
    // Issue 9's facility pump control: the three the model knows, none invented here.
    EXPECT_EQ(offered(f.combo(F::FacilityPumpControl)),
              declared("/cooling/facility_loop/pump_control"));
    EXPECT_EQ(offered(f.combo(F::FacilityPumpControl)).size(), 3);
    EXPECT_FALSE(f.combo(F::HeatRejection)->isEditable());
    // A file with a value the model rejects shows it, marked, and the form reports it.
    Json bad = scenario();
    bad["cooling"]["heat_rejection"]["type"] = "chiller";
    m.setJson(bad);
    f.reset();
    EXPECT_TRUE(f.combo(F::HeatRejection)->currentText().contains(QStringLiteral("not valid")));
    EXPECT_TRUE(f.fieldError(F::HeatRejection).contains(QStringLiteral("cooling_tower")));
    EXPECT_TRUE(f.hasInvalidInput());
    EXPECT_EQ(m.toJson(), bad);
    choose(f, F::HeatRejection, QStringLiteral("cooling_tower"));
    EXPECT_FALSE(f.hasInvalidInput());
    EXPECT_EQ(m.toJson()["cooling"]["heat_rejection"]["type"], "cooling_tower");
    EXPECT_EQ(m.toJson()["cooling"]["heat_rejection"]["units"], 4);  // siblings kept
    choose(f, F::FacilityPumpControl, QStringLiteral("differential_pressure"));
    EXPECT_EQ(m.toJson()["cooling"]["facility_loop"]["pump_control"], "differential_pressure");
    // The facility loop's liquid (a glycol against frost on outdoor coils): the coolants the
    // model knows; water until one is chosen; written beside the pump control.
    EXPECT_EQ(offered(f.combo(F::FacilityCoolant)), declared("/cooling/facility_loop/coolant"));
    EXPECT_TRUE(offered(f.combo(F::FacilityCoolant)).contains(QStringLiteral("PG40")));
    EXPECT_TRUE(f.combo(F::FacilityCoolant)->currentText().startsWith(QStringLiteral("water")));
    choose(f, F::FacilityCoolant, QStringLiteral("PG40"));
    EXPECT_EQ(m.toJson()["cooling"]["facility_loop"]["coolant"], "PG40");
    EXPECT_EQ(m.toJson()["cooling"]["facility_loop"]["pump_control"], "differential_pressure");
    // The outdoor glycol loop behind a plate heat exchanger: none until a liquid is chosen;
    // choosing one creates the loop beside the units' other keys, "none" removes it whole, and
    // a loop without the key shows the model's default liquid.
    EXPECT_EQ(offered(f.combo(F::OutdoorLoopCoolant)),
              declared("/cooling/heat_rejection/outdoor_loop/coolant"));
    EXPECT_TRUE(f.combo(F::OutdoorLoopCoolant)->currentText().startsWith(QStringLiteral("none")));
    choose(f, F::OutdoorLoopCoolant, QStringLiteral("PG50"));
    EXPECT_EQ(m.toJson()["cooling"]["heat_rejection"]["outdoor_loop"]["coolant"], "PG50");
    EXPECT_EQ(m.toJson()["cooling"]["heat_rejection"]["type"], "cooling_tower");  // kept
    f.combo(F::OutdoorLoopCoolant)->setCurrentIndex(0);
    EXPECT_FALSE(m.toJson()["cooling"]["heat_rejection"].contains("outdoor_loop"));
    {
        Json j = m.toJson();
        j["cooling"]["heat_rejection"]["outdoor_loop"] = {{"approach_K", 1.5}};
        m.setJson(j);
        f.reset();
        EXPECT_EQ(f.combo(F::OutdoorLoopCoolant)->currentText(), QStringLiteral("PG40 (default)"));
        choose(f, F::OutdoorLoopCoolant, QStringLiteral("PG30"));
        EXPECT_EQ(m.toJson()["cooling"]["heat_rejection"]["outdoor_loop"]["approach_K"], 1.5);
        f.combo(F::OutdoorLoopCoolant)->setCurrentIndex(0);
        EXPECT_FALSE(m.toJson()["cooling"]["heat_rejection"].contains("outdoor_loop"));
    }
    // The CDU pumps' reset: the three the model knows, the catalog's own when not set.
    EXPECT_EQ(offered(f.combo(F::CduPumpReset)), declared("/cooling/cdu/dp_reset"));
    EXPECT_EQ(offered(f.combo(F::CduPumpReset)).size(), 3);
    EXPECT_EQ(f.combo(F::CduPumpReset)->currentText(), QStringLiteral("(default)"));
    choose(f, F::CduPumpReset, QStringLiteral("delta_t"));
    EXPECT_EQ(m.toJson()["cooling"]["cdu"]["dp_reset"], "delta_t");
    EXPECT_EQ(m.toJson()["cooling"]["cdu"]["racks_per_cdu"], 8);  // siblings kept
    f.combo(F::CduPumpReset)->setCurrentIndex(0);                 // back to the catalog's
    EXPECT_FALSE(m.toJson()["cooling"]["cdu"].contains("dp_reset"));
}

TEST(ScenarioForm, FieldsWriteTheirKeysWithTypes) {
    ScenarioTreeModel m;
    m.setJson(scenario());
    ScenarioForm f(&m);
    type(f, F::Racks, QStringLiteral("128"));
    type(f, F::RacksPerCdu, QStringLiteral("4"));
    type(f, F::SupplyTemp, QStringLiteral("32.5"));
    choose(f, F::UpsTopology, QStringLiteral("2N"));
    const Json j = m.toJson();
    EXPECT_TRUE(j["it"]["racks"][0]["count"].is_number_integer());
    EXPECT_EQ(j["it"]["racks"][0]["count"], 128);
    EXPECT_EQ(j["cooling"]["cdu"]["racks_per_cdu"], 4);
    EXPECT_DOUBLE_EQ(j["cooling"]["tcs_supply_temp_C"].get<double>(), 32.5);
    EXPECT_EQ(j["power"]["ups"]["topology"], "2N");  // created with its parents
    // Choosing "(default)" removes the key again.
    f.combo(F::UpsTopology)->setCurrentIndex(0);
    EXPECT_FALSE(m.value("/power/ups/topology").has_value());
    // Clearing a number with a default removes it; the placeholder shows the default.
    type(f, F::RacksPerCdu, QString());
    EXPECT_FALSE(m.value("/cooling/cdu/racks_per_cdu").has_value());
    EXPECT_FALSE(f.hasInvalidInput());
    // Clearing a number the model needs is refused.
    type(f, F::Racks, QString());
    EXPECT_FALSE(f.fieldError(F::Racks).isEmpty());
    EXPECT_EQ(m.toJson()["it"]["racks"][0]["count"], 128);
}

TEST(ScenarioForm, StudyLengthIsWrittenOnce) {
    ScenarioTreeModel m;
    m.setJson(scenario());
    ScenarioForm f(&m);
    f.combo(F::Length)->setCurrentIndex(0);  // days: 48 h is restated as 2 days
    Json j = m.toJson();
    EXPECT_EQ(j["study"]["days"], 2);
    EXPECT_FALSE(j["study"].contains("hours"));  // the loader rejects two lengths
    type(f, F::Length, QStringLiteral("7"));
    EXPECT_EQ(m.toJson()["study"]["days"], 7);
    type(f, F::OutputInterval, QStringLiteral("5"));  // still in minutes
    j = m.toJson();
    EXPECT_EQ(j["study"]["output_interval_min"], 5);
    EXPECT_FALSE(j["study"].contains("output_interval_s"));
    // A design point has no length; going back to a transient gives it one, in view.
    choose(f, F::StudyKind, QStringLiteral("design_point"));
    j = m.toJson();
    EXPECT_EQ(j["study"]["kind"], "design_point");
    EXPECT_FALSE(j["study"].contains("days"));
    EXPECT_FALSE(f.lineEdit(F::Length)->isEnabled());
    choose(f, F::StudyKind, QStringLiteral("transient"));
    j = m.toJson();
    EXPECT_EQ(j["study"]["hours"], 1);
    EXPECT_EQ(f.lineEdit(F::Length)->text(), QStringLiteral("1"));
    EXPECT_EQ(f.combo(F::Length)->currentText(), QStringLiteral("h"));
    EXPECT_TRUE(f.lineEdit(F::Length)->isEnabled());
}

TEST(ScenarioForm, FahrenheitIsShownInCelsiusAndKeptUntilEdited) {
    ScenarioTreeModel m;
    Json s = scenario();
    s["cooling"].erase("tcs_supply_temp_C");
    s["cooling"]["tcs_supply_temp_F"] = 95;
    m.setJson(s);
    ScenarioForm f(&m);
    EXPECT_EQ(f.lineEdit(F::SupplyTemp)->text(), QStringLiteral("35"));
    emit f.lineEdit(F::SupplyTemp)->editingFinished();  // tabbing through writes nothing
    f.commitEdits();
    EXPECT_EQ(m.toJson(), s);
    type(f, F::SupplyTemp, QStringLiteral("30"));
    EXPECT_EQ(m.toJson()["cooling"]["tcs_supply_temp_C"], 30);
    EXPECT_FALSE(m.toJson()["cooling"].contains("tcs_supply_temp_F"));
}

TEST(ScenarioForm, IpUnitsShowAndWriteTheSupplyTemperatureInFahrenheit) {
    // View ▸ Units ▸ IP: the README listed the form as staying SI.
    struct Ip {
        Ip() { setUnitSystem(UnitSystem::IP); }
        ~Ip() { setUnitSystem(UnitSystem::SI); }
    } ip;
    ScenarioTreeModel m;
    m.setJson(scenario());
    ScenarioForm f(&m);
    EXPECT_EQ(f.lineEdit(F::SupplyTemp)->text(), QStringLiteral("95"));  // 35 °C
    f.commitEdits();
    EXPECT_EQ(m.toJson(), scenario());  // shown in °F, nothing rewritten
    // The range is the °F spelling's own, 59–122 °F (15–50 °C).
    type(f, F::SupplyTemp, QStringLiteral("130"));
    EXPECT_TRUE(f.fieldError(F::SupplyTemp).contains(QStringLiteral("59 to 122 °F")))
        << f.fieldError(F::SupplyTemp).toStdString();
    EXPECT_EQ(m.toJson(), scenario());
    // Typed in °F, written in °F, one spelling in the file; the twin reads 36 °C.
    type(f, F::SupplyTemp, QStringLiteral("96.8"));
    EXPECT_EQ(m.toJson()["cooling"]["tcs_supply_temp_F"], 96.8);
    EXPECT_FALSE(m.toJson()["cooling"].contains("tcs_supply_temp_C"));
    const auto sc = facility::parseScenario(m.toJson(), fs::path(DCTWIN_SOURCE_DIR), "form");
    EXPECT_NEAR(units::kelvinToCelsius(sc.halls.front().cooling.tcs_supply_setpoint), 36.0, 1e-9);
    // Back in SI the field shows °C; with the key removed the default reads in °F under IP.
    setUnitSystem(UnitSystem::SI);
    f.refresh();
    EXPECT_EQ(f.lineEdit(F::SupplyTemp)->text(), QStringLiteral("36"));
    setUnitSystem(UnitSystem::IP);
    type(f, F::SupplyTemp, QString());
    EXPECT_FALSE(m.toJson()["cooling"].contains("tcs_supply_temp_F"));
    EXPECT_EQ(f.lineEdit(F::SupplyTemp)->placeholderText(), QStringLiteral("95 °F (default)"));
}

TEST(ScenarioForm, TreeEditsShowInTheForm) {
    ScenarioTreeModel m;
    m.setJson(scenario());
    ScenarioForm f(&m);
    ASSERT_TRUE(m.setData(m.indexForPointer("/cooling/heat_rejection/type", 1),
                          QStringLiteral("adiabatic_cooler")));
    EXPECT_EQ(f.combo(F::HeatRejection)->currentData().toString(),
              QStringLiteral("adiabatic_cooler"));
    ASSERT_TRUE(m.setData(m.indexForPointer("/it/racks/0/count", 1), QStringLiteral("1390")));
    EXPECT_EQ(f.lineEdit(F::Racks)->text(), QStringLiteral("1390"));
}

TEST(ScenarioForm, CreatesTheFirstRackGroupWhenMissing) {
    ScenarioTreeModel m;
    m.setJson(Json{{"name", "empty"}});
    ScenarioForm f(&m);
    type(f, F::Racks, QStringLiteral("16"));
    const Json j = m.toJson();
    ASSERT_TRUE(j["it"]["racks"].is_array());
    EXPECT_EQ(j["it"]["racks"][0]["count"], 16);
    EXPECT_EQ(j["it"]["racks"][0]["model"], "gb300_nvl72");
}

Json referenceSite() {
    return readJsonFile(fs::path(DCTWIN_SOURCE_DIR) / "scenarios/azure_gb300_64.json");
}

TEST(ScenarioForm, RackCountChangeSaysJobsAndNameNoLongerMatchAndScalesOnRequest) {
    ScenarioTreeModel m;
    const Json site = referenceSite();
    m.setJson(site);
    ScenarioForm f(&m);
    EXPECT_TRUE(f.workloadNotice().isEmpty());
    type(f, F::Racks, QStringLiteral("128"));
    // The plant is re-sized, the jobs and name are not touched, and the form says so.
    Json j = m.toJson();
    EXPECT_EQ(j["it"]["racks"][0]["count"], 128);
    EXPECT_EQ(j["workload"], site["workload"]);
    EXPECT_EQ(j["name"], site["name"]);
    EXPECT_TRUE(f.workloadNotice().contains(QStringLiteral("64 of the 128 racks will stay idle")))
        << f.workloadNotice().toStdString();
    EXPECT_TRUE(f.workloadNotice().contains(QStringLiteral("The name says 64 racks")));
    // On request: 32 + 8 + 24 jobs on 64 racks become 64 + 16 + 48 on 128; the name follows.
    ASSERT_TRUE(f.scaleWorkloadToRacks());
    j = m.toJson();
    EXPECT_EQ(j["workload"]["jobs"][0]["racks"], 64);
    EXPECT_EQ(j["workload"]["jobs"][1]["racks"], 16);
    EXPECT_EQ(j["workload"]["jobs"][2]["racks"], 48);
    EXPECT_EQ(j["name"], "Azure GB300 NVL72 cluster, 128 racks");
    EXPECT_TRUE(f.workloadNotice().isEmpty()) << f.workloadNotice().toStdString();
    EXPECT_EQ(f.referenceRackTotal(), 128);
    // The scaled scenario is one the model accepts.
    EXPECT_NO_THROW(facility::parseScenario(j, fs::path(DCTWIN_SOURCE_DIR) / "scenarios", "t"));
    // Shrinking below the jobs is an error the form names before the run.
    type(f, F::Racks, QStringLiteral("100"));
    EXPECT_TRUE(f.workloadNotice().contains(QStringLiteral("need 128 racks but the site has 100")));
    // "NVL72 racks" is a rack model, not a count.
    ASSERT_TRUE(m.setValue("/name", "GB300 NVL72 racks"));
    EXPECT_FALSE(f.workloadNotice().contains(QStringLiteral("The name says")));
}

TEST(ScenarioForm, ScaledCountsKeepProportionsAndTotal) {
    EXPECT_EQ(scaleCounts({32, 8, 24}, 64, 128), (std::vector<int>{64, 16, 48}));
    // 50 + 12.5 + 37.5: the half racks go by largest remainder, earlier job first.
    EXPECT_EQ(scaleCounts({32, 8, 24}, 64, 100), (std::vector<int>{50, 13, 37}));
    // Every job keeps at least one rack.
    EXPECT_EQ(scaleCounts({1, 63}, 64, 8), (std::vector<int>{1, 7}));
}

TEST(ScenarioForm, WeatherBrowseStartsInTheWeatherFolder) {
    const fs::path scenarios = fs::path(DCTWIN_SOURCE_DIR) / "scenarios";
    const fs::path weather = fs::weakly_canonical(dataDir() / "weather");
    // The shipped scenarios say "data/weather/…" from scenarios/: not scenarios/data/weather.
    EXPECT_EQ(fs::weakly_canonical(weatherDialogDir(
                  "data/weather/USA_WI_Milwaukee-Mitchell.Intl.AP.726400_TMY3.epw", scenarios)),
              weather);
    EXPECT_EQ(fs::weakly_canonical(weatherDialogDir("", scenarios)), weather);
    EXPECT_EQ(fs::weakly_canonical(weatherDialogDir("data/weather/missing.epw", scenarios)),
              weather);
}

TEST(ScenarioForm, DataPathsAreStoredRelativeWherePossible) {
    const fs::path root(DCTWIN_SOURCE_DIR);
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

namespace dctwin::gui {
namespace {

TEST(ScenarioForm, EveryShippedScenarioOpensCleanAndUnchanged) {
    // A shipped scenario is one the model accepts: the form must not mark any of its values
    // as refused, nor change it by showing it.
    int opened = 0;
    for (const auto& e : fs::directory_iterator(fs::path(DCTWIN_SOURCE_DIR) / "scenarios")) {
        if (e.path().extension() != ".json") continue;
        const Json j = readJsonFile(e.path());
        if (j.contains("base")) continue;  // a sweep file: the window shows it in the tree
        ScenarioTreeModel m;
        m.setJson(j);
        ScenarioForm f(&m);
        f.commitEdits();
        EXPECT_FALSE(f.hasInvalidInput())
            << e.path().filename() << ": " << f.invalidInputs().join("; ").toStdString();
        EXPECT_EQ(m.toJson(), j) << e.path().filename();
        EXPECT_TRUE(f.workloadNotice().isEmpty())
            << e.path().filename() << ": " << f.workloadNotice().toStdString();
        ++opened;
    }
    EXPECT_GE(opened, 5);
}

TEST(ScenarioForm, ACampusSaysWhichCoolingFieldsAHallSetsForItself) {
    // The form edits /cooling, which every hall takes unless its own /cooling sets a key. The
    // two-hall campus showed "Heat rejection: adiabatic_cooler" with nothing to say hall B runs
    // cooling towers on water.
    ScenarioTreeModel m;
    Json j = scenario();
    j["halls"] = Json::parse(R"([{"name": "A", "racks": 40},
        {"name": "B", "racks": 24, "cooling": {"coolant": "water",
                                               "heat_rejection": {"type": "cooling_tower"}}}])");
    m.setJson(j);
    ScenarioForm f(&m);
    const std::string note = f.hallsNotice().toStdString();
    EXPECT_NE(note.find("Campus of 2 halls: A (40 racks), B (24 racks)"), std::string::npos)
        << note;
    EXPECT_NE(note.find("hall B sets Coolant (water), Heat rejection (cooling_tower)"),
              std::string::npos)
        << note;
    EXPECT_EQ(note.find("hall A sets"), std::string::npos) << note;
    // A hall's own key edited in the tree shows at once; a scenario without halls has no note.
    m.setValue("/halls/0/cooling", Json::parse(R"({"tcs_supply_temp_C": 40})"));
    EXPECT_NE(f.hallsNotice().toStdString().find("hall A sets TCS supply temperature (40)"),
              std::string::npos)
        << f.hallsNotice().toStdString();
    m.setJson(scenario());
    EXPECT_TRUE(f.hallsNotice().isEmpty());
}

}  // namespace
}  // namespace dctwin::gui
