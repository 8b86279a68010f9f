#include "gui/scenario_tree_model.h"

#include <gtest/gtest.h>

#include <QSignalSpy>

namespace dctwin::gui {
namespace {

Json sampleScenario() {
    return Json::parse(R"({
        "name": "test site",
        "it": {"racks": [{"model": "gb300_nvl72", "count": 64}], "fabric": "quantum_x800_2tier"},
        "cooling": {"coolant": "PG25", "tcs_supply_temp_C": 35.0,
                    "cdu": {"racks_per_cdu": 8}, "heat_rejection": {"type": "dry_cooler"}},
        "power": {"smoothing": {"floor_pct": 60, "enabled": true}},
        "study": {"kind": "annual", "days": 365, "output_interval_s": 600},
        "odd/key": {"til~de": null},
        "events": []
    })");
}

TEST(ScenarioTreeModel, RoundTripIsExact) {
    ScenarioTreeModel m;
    const Json j = sampleScenario();
    m.setJson(j);
    EXPECT_EQ(m.toJson(), j);
    EXPECT_EQ(m.toJson().dump(), j.dump());  // same types, not only equal values
    EXPECT_EQ(m.rowCount(), static_cast<int>(j.size()));
}

TEST(ScenarioTreeModel, IndexAndPointerAgreeForNestedValues) {
    ScenarioTreeModel m;
    m.setJson(sampleScenario());
    const QModelIndex count = m.indexForPointer("/it/racks/0/count");
    ASSERT_TRUE(count.isValid());
    EXPECT_EQ(m.jsonPointer(count), QStringLiteral("/it/racks/0/count"));
    EXPECT_EQ(m.data(count).toString(), QStringLiteral("count"));
    EXPECT_EQ(m.data(count.siblingAtColumn(ScenarioTreeModel::ValueColumn)).toString(),
              QStringLiteral("64"));
    EXPECT_EQ(m.data(count.siblingAtColumn(ScenarioTreeModel::TypeColumn)).toString(),
              QStringLiteral("integer"));
    // Array elements show their index, and keys with '/' or '~' are escaped per RFC 6901.
    EXPECT_EQ(m.data(m.parent(count)).toString(), QStringLiteral("[0]"));
    const QModelIndex odd = m.indexForPointer("/odd~1key/til~0de");
    ASSERT_TRUE(odd.isValid());
    EXPECT_EQ(m.data(odd).toString(), QStringLiteral("til~de"));
    EXPECT_EQ(m.jsonPointer(odd), QStringLiteral("/odd~1key/til~0de"));
    EXPECT_FALSE(m.indexForPointer("/cooling/nope").isValid());
    EXPECT_FALSE(m.indexForPointer("no-slash").isValid());
}

TEST(ScenarioTreeModel, ContainersSayHowManyInTheRightNumber) {
    // A sweep's "set" with one key read "{1 keys}".
    ScenarioTreeModel m;
    m.setJson(Json::parse(R"({"one": {"a": 1}, "two": {"a": 1, "b": 2}, "list": [5],
                              "lists": [5, 6], "none": {}})"));
    const auto value = [&](const char* pointer) {
        return m.data(m.indexForPointer(pointer, ScenarioTreeModel::ValueColumn)).toString();
    };
    EXPECT_EQ(value("/one"), QStringLiteral("{1 key}"));
    EXPECT_EQ(value("/two"), QStringLiteral("{2 keys}"));
    EXPECT_EQ(value("/none"), QStringLiteral("{0 keys}"));
    EXPECT_EQ(value("/list"), QStringLiteral("[1 item]"));
    EXPECT_EQ(value("/lists"), QStringLiteral("[2 items]"));
}

TEST(ScenarioTreeModel, EditOfNestedIntegerKeepsType) {
    ScenarioTreeModel m;
    m.setJson(sampleScenario());
    QSignalSpy changed(&m, &ScenarioTreeModel::jsonChanged);
    QSignalSpy data_changed(&m, &QAbstractItemModel::dataChanged);
    const QModelIndex v =
        m.indexForPointer("/cooling/cdu/racks_per_cdu", ScenarioTreeModel::ValueColumn);
    ASSERT_TRUE(v.isValid());
    EXPECT_TRUE(m.flags(v) & Qt::ItemIsEditable);
    ASSERT_TRUE(m.setData(v, QStringLiteral("12")));
    const Json j = m.toJson();
    EXPECT_TRUE(j["cooling"]["cdu"]["racks_per_cdu"].is_number_integer());
    EXPECT_EQ(j["cooling"]["cdu"]["racks_per_cdu"].get<int>(), 12);
    EXPECT_EQ(changed.count(), 1);
    EXPECT_GE(data_changed.count(), 1);
    // Nothing else moved.
    Json expected = sampleScenario();
    expected["cooling"]["cdu"]["racks_per_cdu"] = 12;
    EXPECT_EQ(j, expected);
}

TEST(ScenarioTreeModel, EditOfFloatStringAndBoolKeepTypes) {
    ScenarioTreeModel m;
    m.setJson(sampleScenario());
    const auto value = [&](const char* p) {
        return m.indexForPointer(p, ScenarioTreeModel::ValueColumn);
    };
    ASSERT_TRUE(m.setData(value("/cooling/tcs_supply_temp_C"), QStringLiteral("32")));
    EXPECT_TRUE(m.toJson()["cooling"]["tcs_supply_temp_C"].is_number_float());
    EXPECT_DOUBLE_EQ(m.toJson()["cooling"]["tcs_supply_temp_C"].get<double>(), 32.0);
    // A number typed into a string stays a string.
    ASSERT_TRUE(m.setData(value("/cooling/coolant"), QStringLiteral("35")));
    EXPECT_TRUE(m.toJson()["cooling"]["coolant"].is_string());
    EXPECT_EQ(m.toJson()["cooling"]["coolant"], "35");
    // Booleans accept the delegate's bool and text.
    ASSERT_TRUE(m.setData(value("/power/smoothing/enabled"), false));
    EXPECT_EQ(m.toJson()["power"]["smoothing"]["enabled"], false);
    ASSERT_TRUE(m.setData(value("/power/smoothing/enabled"), QStringLiteral("TRUE")));
    EXPECT_EQ(m.toJson()["power"]["smoothing"]["enabled"], true);
    // A null accepts any JSON, including an object that becomes new rows.
    const QModelIndex null_value = value("/odd~1key/til~0de");
    ASSERT_TRUE(m.setData(null_value, QStringLiteral("{\"a\": [1, 2]}")));
    EXPECT_EQ(m.toJson()["odd/key"]["til~de"], Json::parse(R"({"a": [1, 2]})"));
    EXPECT_EQ(m.rowCount(m.indexForPointer("/odd~1key/til~0de/a")), 2);
}

TEST(ScenarioTreeModel, RejectedEditNamesThePathAndChangesNothing) {
    ScenarioTreeModel m;
    m.setJson(sampleScenario());
    QSignalSpy rejected(&m, &ScenarioTreeModel::editRejected);
    const QModelIndex v = m.indexForPointer("/it/racks/0/count", ScenarioTreeModel::ValueColumn);
    EXPECT_FALSE(m.setData(v, QStringLiteral("sixty")));
    ASSERT_EQ(rejected.count(), 1);
    const QString msg = rejected.takeFirst().at(0).toString();
    EXPECT_TRUE(msg.contains(QStringLiteral("/it/racks/0/count"))) << msg.toStdString();
    EXPECT_TRUE(msg.contains(QStringLiteral("number"))) << msg.toStdString();
    EXPECT_EQ(m.toJson(), sampleScenario());
    // Containers are not edited in place.
    EXPECT_FALSE(m.flags(m.indexForPointer("/cooling", 1)) & Qt::ItemIsEditable);
}

TEST(ScenarioTreeModel, SetValueCreatesParentsAndReplacesSubtrees) {
    ScenarioTreeModel m;
    m.setJson(sampleScenario());
    ASSERT_TRUE(m.setValue("/power/ups/topology", "4N/3"));
    EXPECT_EQ(m.toJson()["power"]["ups"]["topology"], "4N/3");
    EXPECT_TRUE(m.indexForPointer("/power/ups/topology").isValid());
    ASSERT_TRUE(m.setValue("/events/-", Json{{"type", "chiller_trip"}, {"at_s", 10}}));
    EXPECT_EQ(m.toJson()["events"].size(), 1u);
    EXPECT_EQ(m.jsonPointer(m.indexForPointer("/events/0/type")), QStringLiteral("/events/0/type"));
    // Through a scalar is an error naming the path.
    QString error;
    EXPECT_FALSE(m.setValue("/name/first", "x", &error));
    EXPECT_TRUE(error.contains(QStringLiteral("/name"))) << error.toStdString();
    EXPECT_FALSE(m.setValue("/it/racks/5/count", 1, &error));
    ASSERT_TRUE(m.removeValue("/events/0"));
    EXPECT_TRUE(m.toJson()["events"].empty());
    EXPECT_FALSE(m.removeValue("/does/not/exist"));
}

}  // namespace
}  // namespace dctwin::gui
