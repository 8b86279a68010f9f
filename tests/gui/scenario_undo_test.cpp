#include "gui/scenario_undo.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QMenuBar>
#include <QTreeView>
#include <QUndoStack>
#include <vector>

#include "gui/main_window.h"
#include "gui/scenario_form.h"
#include "gui/scenario_tree_model.h"

namespace dctwin::gui {
namespace {

using F = ScenarioForm::Field;

Json scenario() {
    return Json::parse(R"({
        "name": "undo test, 64 racks",
        "site": {"weather": "data/weather/USA_VA_Leesburg.Exec.epw"},
        "it": {"racks": [{"model": "gb300_nvl72", "count": 64}]},
        "workload": {"jobs": [{"name": "train", "racks": 48}, {"name": "serve", "racks": 16}]},
        "cooling": {"coolant": "PG25", "tcs_supply_temp_C": 35, "cdu": {"racks_per_cdu": 8},
                    "heat_rejection": {"type": "dry_cooler", "units": 4}},
        "study": {"kind": "annual", "hours": 48, "output_interval_min": 10}
    })");
}

void type(ScenarioForm& f, F field, const QString& text) {
    f.lineEdit(field)->setText(text);
    emit f.lineEdit(field)->editingFinished();
}

// Every kind of edit, each checked against the document written out by hand; then all undone
// and redone one step at a time, the document compared with the one recorded at that step.
TEST(ScenarioUndo, EveryFormAndTreeEditUndoesAndRedoesToTheExactDocument) {
    ScenarioTreeModel m;
    m.setJson(scenario());
    ScenarioForm f(&m);
    QUndoStack stack;
    recordEdits(&m, &stack);
    std::vector<Json> docs{m.toJson()};

    // 1. A number field.
    type(f, F::SupplyTemp, QStringLiteral("40"));
    Json want = docs.back();
    want["cooling"]["tcs_supply_temp_C"] = 40;
    ASSERT_EQ(m.toJson(), want);
    docs.push_back(want);

    // 2. A list field.
    const int water = f.combo(F::Coolant)->findData(QStringLiteral("water"));
    ASSERT_GE(water, 0);
    f.combo(F::Coolant)->setCurrentIndex(water);
    want["cooling"]["coolant"] = "water";
    ASSERT_EQ(m.toJson(), want);
    docs.push_back(want);

    // 3. The study length in days: one edit writes days and removes hours, one undo step.
    f.combo(F::Length)->setCurrentIndex(0);
    want["study"].erase("hours");
    want["study"]["days"] = 2;
    ASSERT_EQ(m.toJson(), want);
    docs.push_back(want);

    // 4. An edit in the tree.
    ASSERT_TRUE(
        m.setData(m.indexForPointer("/cooling/heat_rejection/units", 1), QStringLiteral("6")));
    want["cooling"]["heat_rejection"]["units"] = 6;
    ASSERT_EQ(m.toJson(), want);
    docs.push_back(want);

    // 5. Delete in the tree (a whole object).
    const QModelIndex cdu = m.indexForPointer("/cooling/cdu");
    ASSERT_TRUE(m.removeRows(cdu.row(), 1, cdu.parent()));
    want["cooling"].erase("cdu");
    ASSERT_EQ(m.toJson(), want);
    docs.push_back(want);

    // 6. Rack count, then "scale the jobs": 48 + 16 on 64 racks → 96 + 32 on 128, and the name.
    type(f, F::Racks, QStringLiteral("128"));
    want["it"]["racks"][0]["count"] = 128;
    ASSERT_EQ(m.toJson(), want);
    docs.push_back(want);
    ASSERT_TRUE(f.scaleWorkloadToRacks());
    want["workload"]["jobs"][0]["racks"] = 96;
    want["workload"]["jobs"][1]["racks"] = 32;
    want["name"] = "undo test, 128 racks";
    ASSERT_EQ(m.toJson(), want);
    docs.push_back(want);

    // 7. A key added where there was none (its parent object is created too).
    ASSERT_TRUE(m.setValue("/power/bess/enabled", true));
    want["power"]["bess"]["enabled"] = true;
    ASSERT_EQ(m.toJson(), want);
    docs.push_back(want);

    ASSERT_EQ(stack.count(), static_cast<int>(docs.size()) - 1);  // one step per user edit
    for (int i = static_cast<int>(docs.size()) - 2; i >= 0; --i) {
        stack.undo();
        EXPECT_EQ(m.toJson(), docs[static_cast<std::size_t>(i)]) << "after undoing step " << i + 1;
    }
    EXPECT_FALSE(stack.canUndo());
    // The form follows: 35 °C and 64 racks are back in the fields.
    EXPECT_EQ(f.lineEdit(F::SupplyTemp)->text(), QStringLiteral("35"));
    EXPECT_EQ(f.lineEdit(F::Racks)->text(), QStringLiteral("64"));
    for (std::size_t i = 1; i < docs.size(); ++i) {
        stack.redo();
        EXPECT_EQ(m.toJson(), docs[i]) << "after redoing step " << i;
    }
    EXPECT_FALSE(stack.canRedo());
    EXPECT_EQ(f.lineEdit(F::SupplyTemp)->text(), QStringLiteral("40"));
}

TEST(ScenarioUndo, UnchangedOrRefusedInputIsNoUndoStep) {
    ScenarioTreeModel m;
    m.setJson(scenario());
    ScenarioForm f(&m);
    QUndoStack stack;
    recordEdits(&m, &stack);
    type(f, F::SupplyTemp, QStringLiteral("35"));   // the value it has
    type(f, F::SupplyTemp, QStringLiteral("100"));  // refused: outside the model's range
    EXPECT_FALSE(m.setData(m.indexForPointer("/cooling/cdu/racks_per_cdu", 1),
                           QStringLiteral("abc")));  // refused: not a number
    EXPECT_EQ(stack.count(), 0);
    EXPECT_EQ(m.toJson(), scenario());
}

TEST(ScenarioUndo, UndoKeepsTheTreeOpen) {
    ScenarioTreeModel m;
    m.setJson(scenario());
    QTreeView tree;
    tree.setModel(&m);
    QUndoStack stack;
    recordEdits(&m, &stack);
    tree.expand(m.indexForPointer("/cooling"));
    tree.expand(m.indexForPointer("/cooling/heat_rejection"));
    ASSERT_TRUE(m.setValue("/cooling/heat_rejection/units", 5));
    stack.undo();
    EXPECT_EQ(m.toJson(), scenario());
    // Only the changed value was patched; a model reset would have collapsed both.
    EXPECT_TRUE(tree.isExpanded(m.indexForPointer("/cooling")));
    EXPECT_TRUE(tree.isExpanded(m.indexForPointer("/cooling/heat_rejection")));
}

QAction* editAction(MainWindow& w, const QString& prefix) {
    for (QAction* menu : w.menuBar()->actions()) {
        if (menu->text() != QStringLiteral("&Edit")) continue;
        for (QAction* a : menu->menu()->actions()) {
            if (a->text().startsWith(prefix)) return a;
        }
    }
    return nullptr;
}

TEST(ScenarioUndo, WindowHasCtrlZAndCtrlShiftZAndANewFileStartsANewHistory) {
    MainWindow w;
    w.setScenario(scenario(), ".");
    QAction* undo = editAction(w, QStringLiteral("&Undo"));
    QAction* redo = editAction(w, QStringLiteral("&Redo"));
    ASSERT_TRUE(undo && redo);
    EXPECT_TRUE(undo->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_Z)));
    EXPECT_TRUE(redo->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)));
    EXPECT_FALSE(undo->isEnabled());

    type(*w.form(), F::RacksPerCdu, QStringLiteral("4"));
    EXPECT_TRUE(w.isModified());
    EXPECT_TRUE(undo->isEnabled());
    EXPECT_TRUE(undo->text().contains(QStringLiteral("Racks per CDU"), Qt::CaseInsensitive))
        << undo->text().toStdString();
    undo->trigger();
    EXPECT_EQ(w.scenarioModel()->toJson(), scenario());
    EXPECT_FALSE(w.isModified());  // back to what was opened
    redo->trigger();
    EXPECT_EQ(w.scenarioModel()->toJson()["cooling"]["cdu"]["racks_per_cdu"], 4);
    EXPECT_TRUE(w.isModified());

    w.setScenario(Json{{"name", "other"}}, ".");
    EXPECT_FALSE(w.undoStack()->canUndo());  // no stepping back into the previous file
    EXPECT_FALSE(w.undoStack()->canRedo());
}

}  // namespace
}  // namespace dctwin::gui
