#include <gtest/gtest.h>

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QTemporaryDir>
#include <filesystem>
#include <fstream>

#include "core/data_dir.h"
#include "core/json.h"
#include "gui/main_window.h"
#include "gui/scenario_tree_model.h"

namespace dctwin::gui {
namespace {

namespace fs = std::filesystem;

QMenu* fileSubmenu(MainWindow& w, const QString& title) {
    for (QAction* top : w.menuBar()->actions()) {
        if (top->text() != QStringLiteral("&File")) continue;
        for (QAction* a : top->menu()->actions()) {
            if (a->menu() && a->text() == title) return a->menu();
        }
    }
    return nullptr;
}

TEST(Templates, EveryShippedScenarioIsOfferedAndSweepsAreNot) {
    const auto templates = MainWindow::scenarioTemplates();
    int scenarios = 0;
    for (const auto& e : fs::directory_iterator(scenariosDir())) {
        if (e.path().extension() != ".json") continue;
        const Json j = readJsonFile(e.path());
        if (!j.contains("base")) ++scenarios;  // a sweep names its base scenario
    }
    ASSERT_GT(scenarios, 0);
    EXPECT_EQ(static_cast<int>(templates.size()), scenarios);
    bool azure = false;
    for (const auto& [path, name] : templates) {
        EXPECT_NE(path.filename(), "sweep_heat_rejection_climate.json");
        if (path.filename() == "azure_gb300_64.json") {
            azure = true;
            EXPECT_EQ(name, QStringLiteral("Azure GB300 NVL72 cluster, 64 racks"));
        }
    }
    EXPECT_TRUE(azure);
    MainWindow w;
    QMenu* menu = fileSubmenu(w, QStringLiteral("&New from template"));
    ASSERT_TRUE(menu);
    EXPECT_EQ(static_cast<int>(menu->actions().size()), scenarios);
}

TEST(Templates, ANewScenarioIsTheTemplatesContentButNeverSavedOntoIt) {
    const fs::path templ = scenariosDir() / "azure_gb300_64.json";
    MainWindow w;
    ASSERT_TRUE(w.newFromTemplate(templ));
    EXPECT_EQ(w.scenarioModel()->toJson(), readJsonFile(templ));
    EXPECT_TRUE(w.scenarioFile().empty());  // Ctrl+S asks where
    EXPECT_FALSE(w.isModified());
    const fs::path save_as = w.defaultSaveAsPath();
    EXPECT_EQ(save_as.filename(), "azure_gb300_64_copy.json");
    EXPECT_FALSE(MainWindow::isShippedScenario(save_as));
    EXPECT_FALSE(w.newFromTemplate(scenariosDir() / "no_such_template.json"));
    EXPECT_TRUE(w.messagesText().contains(QStringLiteral("no_such_template.json")));
}

TEST(RecentFiles, NewestFirstNoDuplicatesAtMostEightAndMissingFilesDropped) {
    QSettings().remove(QStringLiteral("recentFiles"));
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const fs::path out(dir.path().toStdString());
    const Json s = readJsonFile(scenariosDir() / "azure_gb300_64.json");
    std::vector<fs::path> files;
    for (int i = 0; i < 10; ++i) {
        files.push_back(out / ("s" + std::to_string(i) + ".json"));
        std::ofstream(files.back()) << s.dump(2);
    }
    MainWindow w;
    ASSERT_TRUE(w.openScenario(files[0]));
    ASSERT_TRUE(w.openScenario(files[1]));
    ASSERT_TRUE(w.saveScenario(files[2]));
    const auto q = [](const fs::path& p) { return QString::fromStdString(p.string()); };
    EXPECT_EQ(w.recentFiles(), (QStringList{q(files[2]), q(files[1]), q(files[0])}));
    ASSERT_TRUE(w.openScenario(files[0]));  // moves to the top, not listed twice
    EXPECT_EQ(w.recentFiles(), (QStringList{q(files[0]), q(files[2]), q(files[1])}));
    for (int i = 3; i < 10; ++i) ASSERT_TRUE(w.openScenario(files[static_cast<std::size_t>(i)]));
    ASSERT_EQ(w.recentFiles().size(), MainWindow::kMaxRecent);
    EXPECT_EQ(w.recentFiles().front(), q(files[9]));
    EXPECT_FALSE(w.recentFiles().contains(q(files[1])));  // the oldest went

    fs::remove(files[9]);
    QMenu* recent = fileSubmenu(w, QStringLiteral("Open &recent"));
    ASSERT_TRUE(recent);
    emit recent->aboutToShow();
    EXPECT_EQ(recent->actions().size(), MainWindow::kMaxRecent - 1);
    EXPECT_FALSE(w.recentFiles().contains(q(files[9])));
    // Choosing an entry opens it.
    recent->actions().front()->trigger();
    EXPECT_EQ(w.scenarioFile(), files[8]);
}

}  // namespace
}  // namespace dctwin::gui
