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
#include <utility>
#include <vector>

#include "core/json.h"
#include "core/results.h"
#include "gui/display_units.h"

class QAction;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTreeView;
class QDockWidget;
class QScrollArea;
class QTemporaryDir;
class QUndoStack;

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
    /// The scenario the report on screen was run from (its /scenario/input) as a new, unsaved
    /// scenario in the editor, the report kept on screen. Relative paths (weather, job lists)
    /// resolve against the folder the run resolved them against (the report's `scenario_dir`
    /// attribute) while it exists, else against the report's own folder. False, with the
    /// reason in the messages, when no report is shown or it holds no scenario.
    bool editReportScenario();
    /// True when the report on screen holds the scenario it was run from.
    bool reportHasScenario() const;
    /// A new, unsaved scenario with the content of a template (a shipped scenario): the
    /// template itself is never the file Save writes to.
    bool newFromTemplate(const std::filesystem::path& template_file);
    /// The shipped scenarios offered by File ▸ New from template (sweep files left out: they
    /// name a base scenario rather than being one), with their "name", sorted by file name.
    static std::vector<std::pair<std::filesystem::path, QString>> scenarioTemplates();
    /// Scenarios and reports opened or saved, newest first (QSettings "recentFiles", at most
    /// kMaxRecent; files that no longer exist are dropped when the menu is shown).
    QStringList recentFiles() const;
    /// Whether files opened or saved go to the recent files (default true). A batch export
    /// (`--pdf`) turns it off: a command that writes a PDF leaves the app's settings alone.
    void setRemembersFiles(bool on) { remembers_files_ = on; }
    static constexpr int kMaxRecent = 8;
    /// Loads a scenario (or a sweep file) from memory; `base_dir` resolves relative paths.
    /// Every form field is reset and the previous results are cleared.
    void setScenario(const Json& scenario, const std::filesystem::path& base_dir);
    /// The document is a sweep file ("base" + "vary"/"cases"): Run runs every case.
    bool isSweep() const { return sweep_mode_; }

    // Run
    /// parseScenario + validateModel; the result (OK or the error text) goes to the messages.
    bool validateScenario();
    /// Runs the scenario, or every case of a sweep file. Refused, with the reasons in the
    /// messages, while a form field holds input the model does not accept.
    bool startRun();
    void cancelRun();

    /// Shows every value in SI or IP units (View ▸ Units); the scenario, the report and the
    /// exports stay SI.
    void setDisplayUnits(UnitSystem system);
    /// Shows the results tab titled `title` (case-insensitive, "&" ignored); false when there is
    /// no such tab or it has nothing to show.
    bool showResultsTab(const QString& title);
    /// Titles of the results tabs that are shown.
    QStringList resultsTabTitles() const;

    // Results and export
    void showReport(std::shared_ptr<const Report> report);
    bool exportHdf5(const std::filesystem::path& file);
    bool exportCsv(const std::filesystem::path& dir);
    /// Every chart with data on the current results tab: `file` itself for one chart,
    /// "<stem>_<n>.png" beside it for several.
    bool exportCurrentChartsPng(const std::filesystem::path& file);
    /// The printable report (title block, summary, sizing tables, charts, one-line diagram)
    /// as a PDF, written through a temporary file in the same folder. On failure a message box
    /// (non-blocking, so tests can read it) and the messages name the file and the reason,
    /// and no file is left.
    bool exportPdf(const std::filesystem::path& file);
    /// The design page (one-line diagram and cooling chain) as SVG (a .svg file) or PNG;
    /// errors as for exportPdf.
    bool exportDesignPng(const std::filesystem::path& file);
    QAction* exportPdfAction() const { return export_pdf_action_; }

    ScenarioTreeModel* scenarioModel() const { return model_; }
    ScenarioForm* form() const { return form_; }
    QTreeView* tree() const { return tree_; }
    ResultsView* results() const { return results_; }
    RunController* runController() const { return controller_; }
    /// Every edit of the scenario since it was opened (Edit ▸ Undo, Ctrl+Z; Redo,
    /// Ctrl+Shift+Z). Opening or making a scenario starts a new history; saving marks the
    /// saved state, so undoing back to it clears the "modified" star.
    QUndoStack* undoStack() const { return undo_stack_; }
    QString messagesText() const;
    bool isModified() const { return modified_; }
    const std::filesystem::path& scenarioFile() const { return file_; }
    /// What the results on screen came from (scenario, file, time), or why there are none.
    QString resultsSource() const;
    /// The banner above the results when the run's plant did not hold something
    /// (facility::notHeld), "" when it held everything or nothing is shown.
    QString notHeldText() const;
    /// Where Save As proposes to save: beside the file, unless it is a shipped scenario (then
    /// the user's documents folder), under a name that is not taken by a shipped scenario.
    std::filesystem::path defaultSaveAsPath() const;
    /// True for files inside the shipped scenarios folder (core/data_dir.h scenariosDir()).
    static bool isShippedScenario(const std::filesystem::path& file);
    /// The folder the last sweep wrote its summaries into ("" before the first sweep).
    std::filesystem::path sweepOutputDir() const;

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void addRecentFile(const std::filesystem::path& file);
    void fillRecentMenu();
    void message(const QString& text);
    void error(const QString& context, const QString& text);
    void updateTitle();
    void updateActions();
    bool maybeSave();
    void selectPathIn(const QString& text);
    void treeContextMenu(const QPoint& pos);
    std::filesystem::path baseDir() const;
    void clearResults(const QString& why);
    bool refuseInvalidForm(const QString& action);
    QString scenarioLabel() const;

    void onOpen();
    void onSave();
    void onSaveAs();
    void onOpenReport();
    void onExportHdf5();
    void onExportCsv();
    void onExportPng();
    void onExportPdf();
    void onExportDesignPng();

    ScenarioTreeModel* model_;
    ScenarioForm* form_;
    QTreeView* tree_;
    ResultsView* results_;
    QPlainTextEdit* messages_;
    QDockWidget* messages_dock_;
    QProgressBar* progress_;
    QPushButton* cancel_button_;
    QLabel* run_label_;
    QLabel* results_source_;
    QLabel* not_held_ = nullptr;  // what the plant did not hold (hidden when all held)
    QLabel* sweep_note_;
    QScrollArea* form_scroll_;
    RunController* controller_;
    QUndoStack* undo_stack_;

    QAction* save_action_ = nullptr;
    QAction* run_action_ = nullptr;
    QAction* cancel_action_ = nullptr;
    QAction* validate_action_ = nullptr;
    QAction* export_h5_action_ = nullptr;
    QAction* export_csv_action_ = nullptr;
    QAction* export_png_action_ = nullptr;
    QAction* export_pdf_action_ = nullptr;
    QAction* export_design_action_ = nullptr;
    QAction* edit_report_scenario_action_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    QAction* si_action_ = nullptr;
    QAction* ip_action_ = nullptr;

    std::filesystem::path file_;
    std::filesystem::path unsaved_base_dir_;
    std::string template_stem_;          // the template a new scenario came from, for Save As
    std::filesystem::path report_file_;  // the report file on screen ("" for a run's report)
    bool modified_ = false;
    bool remembers_files_ = true;
    bool loading_ = false;
    bool sweep_mode_ = false;
    bool results_stale_ = false;
    QString run_source_;  // scenario and file of the run going, for the results label
    std::unique_ptr<QTemporaryDir> sweep_out_;
};

}  // namespace dctwin::gui
