#pragma once
// The dctwin-gui main window (DESIGN.md §5.4): scenario editor (form + tree) on the left, the
// results tabs on the right, messages at the bottom, run progress and Cancel in the status
// bar. Everything a menu does is also a public method, so tests drive the window offscreen
// without dialogs; the file dialogs only pick paths and call those methods. Errors go to the
// message panel with their full text (which names the file, JSON path or value to fix), never
// to a modal box that would hide the text after one click.
#include <QMainWindow>
#include <filesystem>
#include <memory>

#include "core/json.h"
#include "core/results.h"

class QAction;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTreeView;
class QDockWidget;

namespace dctwin::gui {

class ResultsView;
class RunController;
class ScenarioForm;
class ScenarioTreeModel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// `controller` may be given by a test; by default the window makes one that runs
    /// facility::runScenario.
    explicit MainWindow(QWidget* parent = nullptr, RunController* controller = nullptr);
    ~MainWindow() override;

    // File
    bool openScenario(const std::filesystem::path& file);
    bool saveScenario(const std::filesystem::path& file);
    bool openReport(const std::filesystem::path& file);
    /// Loads a scenario from memory (e.g. a template); `base_dir` resolves relative paths.
    void setScenario(const Json& scenario, const std::filesystem::path& base_dir);

    // Run
    /// parseScenario + validateModel; the result (OK or the error text) goes to the messages.
    bool validateScenario();
    bool startRun();
    void cancelRun();

    // Results and export
    void showReport(std::shared_ptr<const Report> report);
    bool exportHdf5(const std::filesystem::path& file);
    bool exportCsv(const std::filesystem::path& dir);
    /// Every chart with data on the current results tab: `file` itself for one chart,
    /// "<stem>_<n>.png" beside it for several.
    bool exportCurrentChartsPng(const std::filesystem::path& file);

    ScenarioTreeModel* scenarioModel() const { return model_; }
    ScenarioForm* form() const { return form_; }
    QTreeView* tree() const { return tree_; }
    ResultsView* results() const { return results_; }
    RunController* runController() const { return controller_; }
    QString messagesText() const;
    bool isModified() const { return modified_; }
    const std::filesystem::path& scenarioFile() const { return file_; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void message(const QString& text);
    void error(const QString& context, const QString& text);
    void updateTitle();
    void updateActions();
    bool maybeSave();
    void selectPathIn(const QString& text);
    void treeContextMenu(const QPoint& pos);
    std::filesystem::path baseDir() const;

    void onOpen();
    void onSave();
    void onSaveAs();
    void onOpenReport();
    void onExportHdf5();
    void onExportCsv();
    void onExportPng();

    ScenarioTreeModel* model_;
    ScenarioForm* form_;
    QTreeView* tree_;
    ResultsView* results_;
    QPlainTextEdit* messages_;
    QDockWidget* messages_dock_;
    QProgressBar* progress_;
    QPushButton* cancel_button_;
    QLabel* run_label_;
    RunController* controller_;

    QAction* save_action_ = nullptr;
    QAction* run_action_ = nullptr;
    QAction* cancel_action_ = nullptr;
    QAction* validate_action_ = nullptr;
    QAction* export_h5_action_ = nullptr;
    QAction* export_csv_action_ = nullptr;
    QAction* export_png_action_ = nullptr;

    std::filesystem::path file_;
    std::filesystem::path unsaved_base_dir_;
    bool modified_ = false;
    bool loading_ = false;
};

}  // namespace dctwin::gui
