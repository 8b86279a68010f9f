#include "gui/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QThread>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>
#include <fstream>
#include <optional>

#include "core/data_dir.h"
#include "core/errors.h"
#include "core/io/report_writer.h"
#include "facility/metrics.h"
#include "facility/scenario.h"
#include "gui/export_check.h"
#include "gui/one_line_diagram.h"
#include "gui/pdf_report.h"
#include "gui/plot/chart_adapter.h"
#include "gui/report_loader.h"
#include "gui/results_view.h"
#include "gui/run_controller.h"
#include "gui/scenario_form.h"
#include "gui/scenario_tree_model.h"
#include "gui/scenario_undo.h"

namespace dctwin::gui {
namespace {

namespace fs = std::filesystem;

QString qpath(const fs::path& p) { return QString::fromStdString(p.string()); }
fs::path fspath(const QString& s) { return fs::path(s.toStdString()); }
QString now() { return QTime::currentTime().toString(QStringLiteral("HH:mm:ss")); }

// A sweep file names a base scenario and what to vary; a scenario has the site itself.
bool isSweepDocument(const Json& j) {
    return j.is_object() && j.contains("base") && !j.contains("it") && !j.contains("site");
}

}  // namespace

MainWindow::MainWindow(QWidget* parent, RunController* controller)
    : QMainWindow(parent),
      model_(new ScenarioTreeModel(this)),
      controller_(controller ? controller : new RunController(this)) {
    if (!controller_->parent()) controller_->setParent(this);
    unsaved_base_dir_ = fs::current_path();

    // Scenario editor: the form above the tree, both over the same model.
    form_ = new ScenarioForm(model_);
    tree_ = new QTreeView;
    tree_->setModel(model_);
    tree_->setAlternatingRowColors(true);
    tree_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                           QAbstractItemView::SelectedClicked);
    tree_->header()->setSectionResizeMode(ScenarioTreeModel::KeyColumn,
                                          QHeaderView::ResizeToContents);
    // A sweep's keys are JSON pointers ("/cooling/heat_rejection/accept_setpoint_exceedance"):
    // sized to them the key column took the whole tree and the values were off screen. Capped,
    // a long key is cut in the middle (both ends say which key) and its tooltip has it whole.
    tree_->header()->setMaximumSectionSize(200);
    tree_->setTextElideMode(Qt::ElideMiddle);
    tree_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(tree_, &QTreeView::customContextMenuRequested, this, &MainWindow::treeContextMenu);
    form_scroll_ = new QScrollArea;
    form_scroll_->setWidget(form_);
    form_scroll_->setWidgetResizable(true);
    // A sweep file is edited in the tree; the form is for one scenario.
    sweep_note_ = new QLabel;
    sweep_note_->setWordWrap(true);
    sweep_note_->setMargin(8);
    // The splitter opens it at zero height (hidden then); a sweep file must show what it is.
    sweep_note_->setMinimumHeight(110);
    sweep_note_->hide();
    auto* editor = new QSplitter(Qt::Vertical);
    editor->addWidget(form_scroll_);
    editor->addWidget(sweep_note_);
    editor->addWidget(tree_);
    editor->setStretchFactor(2, 1);
    // The form's thirteen rows in view at 800 pixels; the tree takes the rest.
    editor->setSizes({400, 110, 300});
    editor->setCollapsible(1, false);  // a zero size would keep the sweep note out of sight
    // At 1280 pixels the splitter gave the editor 230 px and cut every field to "requir…";
    // this is the width at which a label and its field read in full.
    editor->setMinimumWidth(330);

    results_ = new ResultsView;
    // Results always say what they came from, so a plot is never read against the wrong
    // scenario.
    results_source_ = new QLabel;
    results_source_->setWordWrap(true);
    results_source_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    results_source_->setStyleSheet(
        QStringLiteral("padding: 3px; background: palette(alternate-base);"));
    // What the plant did not hold, where it cannot be missed (the CLI's "not held" lines).
    not_held_ = new QLabel;
    not_held_->setWordWrap(true);
    not_held_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    not_held_->setStyleSheet(
        QStringLiteral("padding: 3px; background: #ffe3a3; color: black; font-weight: bold;"));
    not_held_->hide();
    auto* results_panel = new QWidget;
    auto* results_layout = new QVBoxLayout(results_panel);
    results_layout->setContentsMargins(0, 0, 0, 0);
    results_layout->addWidget(results_source_);
    results_layout->addWidget(not_held_);
    results_layout->addWidget(results_, 1);
    auto* central = new QSplitter(Qt::Horizontal);
    central->addWidget(editor);
    central->addWidget(results_panel);
    central->setStretchFactor(1, 2);
    // The editor keeps its width when the window shrinks (stretch 0); at 1280 pixels the
    // results get 940 of them.
    central->setSizes({340, 1060});
    setCentralWidget(central);

    messages_ = new QPlainTextEdit;
    messages_->setReadOnly(true);
    messages_->setMaximumBlockCount(5000);
    messages_dock_ = new QDockWidget(tr("Messages"));
    messages_dock_->setObjectName(QStringLiteral("messages"));
    messages_dock_->setWidget(messages_);
    addDockWidget(Qt::BottomDockWidgetArea, messages_dock_);

    progress_ = new QProgressBar;
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(260);
    progress_->setFormat(QStringLiteral("%p%"));
    cancel_button_ = new QPushButton(tr("Cancel"));
    run_label_ = new QLabel;
    statusBar()->addPermanentWidget(run_label_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_button_);
    progress_->hide();
    cancel_button_->hide();
    connect(cancel_button_, &QPushButton::clicked, this, &MainWindow::cancelRun);

    connect(model_, &ScenarioTreeModel::jsonChanged, this, [this] {
        if (!loading_) modified_ = true;
        if (!loading_ && !results_stale_ && (results_->report() || results_->hasSweep())) {
            results_stale_ = true;
            results_source_->setText(results_source_->text() +
                                     tr(" The scenario has been edited since."));
        }
        updateTitle();
    });
    undo_stack_ = new QUndoStack(this);
    recordEdits(model_, undo_stack_);
    connect(undo_stack_, &QUndoStack::cleanChanged, this, [this](bool clean) {
        // Undone back to what is on disk: nothing left to save.
        if (clean && !loading_) {
            modified_ = false;
            updateTitle();
        }
    });
    connect(model_, &ScenarioTreeModel::editRejected, this,
            [this](const QString& m) { error(tr("Edit rejected"), m); });
    connect(form_, &ScenarioForm::problem, this,
            [this](const QString& m) { error(tr("Form"), m); });

    connect(controller_, &RunController::started, this, [this] {
        progress_->setValue(0);
        progress_->show();
        cancel_button_->show();
        cancel_button_->setEnabled(true);
        run_label_->setText(tr("Running…"));
        updateActions();
    });
    connect(controller_, &RunController::progress, this, [this](double f, double t) {
        progress_->setValue(static_cast<int>(f * 1000.0 + 0.5));
        run_label_->setText(sweep_mode_ ? tr("%1 % of the cases done").arg(f * 100.0, 0, 'f', 0)
                                        : tr("Simulated %1 h").arg(t / 3600.0, 0, 'f', 1));
    });
    connect(controller_, &RunController::finished, this, [this] {
        progress_->hide();
        cancel_button_->hide();
        const auto outcome = controller_->outcome();
        run_label_->setText(tr("Run finished"));
        if (outcome->report.timeseries.time.empty()) {
            // A design point solves the steady state once: no samples or steps to count.
            message(tr("Run finished in %1 s: design point (steady state, no time series).")
                        .arg(outcome->wall_seconds, 0, 'f', 2));
        } else {
            message(tr("Run finished in %1 s: %2 samples, %3 integrator steps, %4 states, %5 "
                       "linear solver.")
                        .arg(outcome->wall_seconds, 0, 'f', 2)
                        .arg(QLocale(QLocale::English)
                                 .toString(static_cast<qlonglong>(
                                     outcome->report.timeseries.time.size())))
                        .arg(QLocale(QLocale::English)
                                 .toString(static_cast<qlonglong>(outcome->stats.steps)))
                        .arg(outcome->state_count)
                        .arg(QString::fromStdString(outcome->linear_solver)));
        }
        // The report lives inside the outcome; share ownership instead of copying a year of
        // samples.
        showReport(std::shared_ptr<const Report>(outcome, &outcome->report));
        report_file_.clear();
        results_stale_ = false;
        const QString finished_at = now();
        results_source_->setText(
            tr("Results of %1, run finished at %2.").arg(run_source_, finished_at));
        results_->keepRun(QStringLiteral("%1, %2").arg(run_source_, finished_at), outcome->report);
        updateActions();
    });
    connect(controller_, &RunController::sweepFinished, this, [this] {
        progress_->hide();
        cancel_button_->hide();
        const auto sweep = controller_->sweepOutcome();
        run_label_->setText(tr("Sweep finished"));
        message(tr("Sweep finished: %1 of %2 cases ran; summaries written to %3.")
                    .arg(sweep->succeeded)
                    .arg(sweep->cases)
                    .arg(qpath(sweepOutputDir())));
        results_->clearReport();
        results_->setSweep(*sweep);
        results_->setCurrentIndex(ResultsView::SweepTab);
        results_stale_ = false;
        results_source_->setText(
            tr("Sweep results of %1, finished at %2.").arg(run_source_, now()));
        updateActions();
    });
    connect(controller_, &RunController::failed, this, [this](const QString& m) {
        progress_->hide();
        cancel_button_->hide();
        run_label_->setText(tr("Run failed"));
        clearResults(tr("The run of %1 failed at %2; no results (the reason is in the "
                        "messages below).")
                         .arg(run_source_, now()));
        error(tr("Run failed"), m);
        selectPathIn(m);
        updateActions();
    });
    connect(controller_, &RunController::cancelled, this, [this] {
        progress_->hide();
        cancel_button_->hide();
        run_label_->setText(tr("Run cancelled"));
        clearResults(tr("The run of %1 was cancelled at %2; no results.").arg(run_source_, now()));
        message(tr("Run cancelled; no results are shown."));
        updateActions();
    });

    buildMenus();
    // 1400 × 900 where the screen has room; on a laptop screen (1366 × 768, 1280 × 800) no
    // larger than the screen, or the charts and tables past its edge cannot be reached.
    QSize size(1400, 900);
    if (const QScreen* s = screen()) size = size.boundedTo(s->availableGeometry().size());
    resize(size);
    // Messages are a few lines; the results need the height.
    resizeDocks({messages_dock_}, {110}, Qt::Vertical);
    updateTitle();
    updateActions();
}

MainWindow::~MainWindow() {
    // The stack is deleted with the window's children and clears itself, which emits
    // cleanChanged; by then the model the handler reads may be gone.
    undo_stack_->blockSignals(true);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QMenu* templates = file->addMenu(tr("&New from template"));
    for (const auto& [path, name] : scenarioTemplates()) {
        const fs::path p = path;
        templates->addAction(QStringLiteral("%1 — %2").arg(qpath(p.filename()), name), this,
                             [this, p] {
                                 if (maybeSave()) newFromTemplate(p);
                             });
    }
    if (templates->isEmpty()) {
        templates->addAction(tr("(no scenarios in %1)").arg(qpath(scenariosDir())))
            ->setEnabled(false);
    }
    file->addAction(tr("&Open scenario…"), QKeySequence::Open, this, &MainWindow::onOpen);
    recent_menu_ = file->addMenu(tr("Open &recent"));
    connect(recent_menu_, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    save_action_ =
        file->addAction(tr("&Save scenario"), QKeySequence::Save, this, &MainWindow::onSave);
    file->addAction(tr("Save scenario &as…"), QKeySequence::SaveAs, this, &MainWindow::onSaveAs);
    file->addSeparator();
    file->addAction(tr("Open &report (HDF5)…"), this, &MainWindow::onOpenReport);
    edit_report_scenario_action_ = file->addAction(tr("Edit the report's s&cenario"), this, [this] {
        if (maybeSave()) editReportScenario();
    });
    QMenu* exp = file->addMenu(tr("&Export"));
    export_h5_action_ = exp->addAction(tr("Report as &HDF5…"), this, &MainWindow::onExportHdf5);
    export_csv_action_ = exp->addAction(tr("Report as &CSV…"), this, &MainWindow::onExportCsv);
    export_png_action_ =
        exp->addAction(tr("Charts of this tab as &PNG…"), this, &MainWindow::onExportPng);
    export_design_action_ =
        exp->addAction(tr("&Design page as SVG or PNG…"), this, &MainWindow::onExportDesignPng);
    export_pdf_action_ = file->addAction(tr("Export report as P&DF…"), QKeySequence::Print, this,
                                         &MainWindow::onExportPdf);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = undo_stack_->createUndoAction(this, tr("&Undo"));
    // QKeySequence::Redo is Ctrl+Shift+Z on Linux and Ctrl+Y on Windows; give both everywhere.
    undo->setShortcuts(QKeySequence::Undo);
    QAction* redo = undo_stack_->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    // Window-wide, so Ctrl+Z undoes a committed edit while the tree or a chart has focus; a
    // line edit being typed in still takes Ctrl+Z for its own text first (ShortcutOverride).
    undo->setShortcutContext(Qt::WindowShortcut);
    redo->setShortcutContext(Qt::WindowShortcut);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QMenu* units = view->addMenu(tr("&Units"));
    auto* unit_group = new QActionGroup(this);
    si_action_ = units->addAction(tr("&SI (°C, kW, L/min, m³, kPa)"));
    ip_action_ = units->addAction(tr("&IP (°F, tons of refrigeration, gpm, gal, psi)"));
    for (QAction* a : {si_action_, ip_action_}) {
        a->setCheckable(true);
        unit_group->addAction(a);
    }
    (unitSystem() == UnitSystem::IP ? ip_action_ : si_action_)->setChecked(true);
    connect(si_action_, &QAction::triggered, this, [this] { setDisplayUnits(UnitSystem::SI); });
    connect(ip_action_, &QAction::triggered, this, [this] { setDisplayUnits(UnitSystem::IP); });

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    validate_action_ = run->addAction(tr("&Validate"), QKeySequence(Qt::Key_F7), this,
                                      &MainWindow::validateScenario);
    run_action_ = run->addAction(tr("&Run"), QKeySequence(Qt::Key_F5), this, &MainWindow::startRun);
    cancel_action_ = run->addAction(tr("&Cancel run"), QKeySequence(Qt::Key_Escape), this,
                                    &MainWindow::cancelRun);
}

QString MainWindow::messagesText() const { return messages_->toPlainText(); }

void MainWindow::message(const QString& text) {
    messages_->appendPlainText(QStringLiteral("[%1] %2").arg(
        QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), text));
    statusBar()->showMessage(text.section(QLatin1Char('\n'), 0, 0), 8000);
}

void MainWindow::error(const QString& context, const QString& text) {
    message(QStringLiteral("%1: %2").arg(context, text));
    messages_dock_->show();
    messages_dock_->raise();
}

void MainWindow::updateTitle() {
    const auto name = model_->value("/name");
    const QString n = name && name->is_string() ? QString::fromStdString(name->get<std::string>())
                                                : tr("untitled scenario");
    const QString f = file_.empty() ? tr("not saved") : qpath(file_.filename());
    setWindowTitle(QStringLiteral("%1 [%2]%3 — dctwin").arg(n, f, modified_ ? "*" : ""));
}

void MainWindow::updateActions() {
    const bool running = controller_->isRunning();
    const bool have_results = results_->report() != nullptr;
    run_action_->setEnabled(!running);
    validate_action_->setEnabled(!running);
    cancel_action_->setEnabled(running);
    export_h5_action_->setEnabled(have_results);
    export_csv_action_->setEnabled(have_results);
    export_png_action_->setEnabled(have_results);
    export_pdf_action_->setEnabled(have_results);
    export_design_action_->setEnabled(have_results &&
                                      !results_->oneLineDiagram()->blocks().empty());
    edit_report_scenario_action_->setEnabled(reportHasScenario());
}

fs::path MainWindow::baseDir() const {
    return file_.empty() ? unsaved_base_dir_
                         : (file_.has_parent_path() ? file_.parent_path() : fs::path("."));
}

QString MainWindow::resultsSource() const { return results_source_->text(); }

QString MainWindow::notHeldText() const {
    return not_held_->isHidden() ? QString() : not_held_->text();
}

void MainWindow::clearResults(const QString& why) {
    results_->clearReport();
    not_held_->hide();
    report_file_.clear();
    results_stale_ = false;
    results_source_->setText(why);
    updateActions();
}

QString MainWindow::scenarioLabel() const {
    const auto name = model_->value("/name");
    const QString n =
        name && name->is_string()
            ? QStringLiteral("“%1”").arg(QString::fromStdString(name->get<std::string>()))
            : tr("the unnamed scenario");
    return QStringLiteral("%1 (%2)").arg(n, file_.empty() ? tr("not saved") : qpath(file_));
}

bool MainWindow::refuseInvalidForm(const QString& action) {
    form_->commitEdits();
    if (sweep_mode_ || !form_->hasInvalidInput()) return false;
    error(action, tr("the form has input the model does not accept, so nothing was done; fix "
                     "the fields marked in red:\n  %1")
                      .arg(form_->invalidInputs().join(QStringLiteral("\n  "))));
    selectPathIn(form_->invalidInputs().front());
    return true;
}

void MainWindow::setScenario(const Json& scenario, const fs::path& base_dir) {
    loading_ = true;
    template_stem_.clear();
    unsaved_base_dir_ = base_dir;
    form_->setBaseDir(base_dir);
    sweep_mode_ = isSweepDocument(scenario);
    model_->setJson(scenario);
    // Every field from this document: a key it lacks shows the model's default, never the
    // previous file's value.
    form_->reset();
    form_scroll_->setVisible(!sweep_mode_);
    sweep_note_->setVisible(sweep_mode_);
    if (sweep_mode_) {
        sweep_note_->setText(
            tr("<b>Sweep file.</b> Its cases are the base scenario <code>%1</code> with the "
               "values under <code>vary</code> and <code>cases</code> applied; edit them in the "
               "tree below. Run (F5) runs every case and shows their summaries side by side.")
                .arg(QString::fromStdString(scenario.value("base", std::string()))));
    }
    loading_ = false;
    file_.clear();
    modified_ = false;
    // A new document: undo must not step back into the previous file.
    undo_stack_->clear();
    tree_->expandToDepth(0);
    clearResults(tr("No results yet: run the scenario (F5) or open a report."));
    updateTitle();
}

bool MainWindow::openScenario(const fs::path& file) {
    Json j;
    try {
        j = readJsonFile(file);
    } catch (const Error& e) {
        error(tr("Open"), QString::fromStdString(e.what()));
        return false;
    }
    setScenario(j, file.has_parent_path() ? file.parent_path() : fs::path("."));
    file_ = file;
    addRecentFile(file);
    updateTitle();
    message(tr("Opened %1").arg(qpath(file)));
    return true;
}

bool MainWindow::newFromTemplate(const fs::path& template_file) {
    Json j;
    try {
        j = readJsonFile(template_file);
    } catch (const Error& e) {
        error(tr("New from template"), QString::fromStdString(e.what()));
        return false;
    }
    // Relative paths in the template (weather, traces) resolve against its folder until the
    // copy is saved.
    setScenario(j, template_file.has_parent_path() ? template_file.parent_path() : fs::path("."));
    template_stem_ = template_file.stem().string();
    updateTitle();
    message(tr("New scenario from the template %1; Save As (Ctrl+Shift+S) keeps it under a "
               "name of your own.")
                .arg(qpath(template_file.filename())));
    return true;
}

std::vector<std::pair<fs::path, QString>> MainWindow::scenarioTemplates() {
    std::vector<std::pair<fs::path, QString>> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(scenariosDir(), ec)) {
        if (e.path().extension() != ".json") continue;
        try {
            const Json j = readJsonFile(e.path());
            if (!j.is_object() || isSweepDocument(j)) continue;
            out.emplace_back(e.path(),
                             QString::fromStdString(j.value("name", e.path().stem().string())));
        } catch (const Error&) {
            // A file that does not read is not offered; opening it names the problem.
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

QStringList MainWindow::recentFiles() const {
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void MainWindow::addRecentFile(const fs::path& file) {
    if (!remembers_files_) return;
    std::error_code ec;
    const fs::path abs = fs::absolute(file, ec);
    const QString f = qpath(ec ? file : abs.lexically_normal());
    QStringList list = recentFiles();
    list.removeAll(f);
    list.prepend(f);
    while (list.size() > kMaxRecent) list.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), list);
}

void MainWindow::fillRecentMenu() {
    recent_menu_->clear();
    QStringList kept;
    for (const QString& f : recentFiles()) {
        if (!QFileInfo::exists(f)) continue;  // moved or deleted since
        kept << f;
        recent_menu_->addAction(f, this, [this, f] {
            const fs::path p = fspath(f);
            if (p.extension() == ".h5" || p.extension() == ".hdf5") {
                openReport(p);
            } else if (maybeSave()) {
                openScenario(p);
            }
        });
    }
    QSettings().setValue(QStringLiteral("recentFiles"), kept);
    if (kept.isEmpty()) recent_menu_->addAction(tr("(none yet)"))->setEnabled(false);
}

bool MainWindow::isShippedScenario(const fs::path& file) {
    std::error_code ec;
    const fs::path dir = fs::weakly_canonical(scenariosDir(), ec);
    if (ec || dir.empty()) return false;
    const fs::path rel = fs::weakly_canonical(file, ec).lexically_relative(dir);
    return !ec && !rel.empty() && *rel.begin() != "..";
}

fs::path MainWindow::defaultSaveAsPath() const {
    const std::string stem = !file_.empty()            ? file_.stem().string()
                             : !template_stem_.empty() ? template_stem_
                                                       : std::string("scenario");
    if (!file_.empty() && !isShippedScenario(file_)) return file_;
    // A shipped scenario is a template: the copy goes where the user keeps their own files.
    QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (docs.isEmpty() || !QFileInfo(docs).isDir()) docs = QDir::homePath();
    fs::path dir = fspath(docs);
    if (isShippedScenario(dir / (stem + ".json"))) dir = fs::temp_directory_path();
    return dir / (stem + "_copy.json");
}

fs::path MainWindow::sweepOutputDir() const {
    return sweep_out_ ? fspath(sweep_out_->path()) : fs::path();
}

bool MainWindow::saveScenario(const fs::path& file) {
    if (isShippedScenario(file)) {
        // The shipped scenarios are the reference cases the README and the tests quote.
        error(tr("Save"), tr("'%1' is a shipped scenario and is not overwritten from the GUI; "
                             "use Save As to keep your changes in a copy.")
                              .arg(qpath(file)));
        return false;
    }
    if (refuseInvalidForm(tr("Save"))) return false;
    // The rename below would replace a symbolic link or a device: refused, as the CLI does.
    if (QString why; !checkExportFile(qpath(file), "scenario", &why)) {
        error(tr("Save"), why);
        return false;
    }
    // Written beside the target and renamed, so a full disk never truncates the only copy.
    const fs::path tmp = file.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << model_->toJson().dump(2) << '\n';
        out.close();
        if (!out) {
            std::error_code ec;
            fs::remove(tmp, ec);
            error(tr("Save"), tr("cannot write '%1' (check that the folder exists and is "
                                 "writable)")
                                  .arg(qpath(file)));
            return false;
        }
    }
    std::error_code ec;
    fs::rename(tmp, file, ec);
    if (ec) {
        fs::remove(tmp, ec);
        error(tr("Save"),
              tr("cannot replace '%1': %2").arg(qpath(file), QString::fromStdString(ec.message())));
        return false;
    }
    file_ = file;
    form_->setBaseDir(baseDir());
    modified_ = false;
    undo_stack_->setClean();
    template_stem_.clear();
    addRecentFile(file);
    updateTitle();
    message(tr("Saved %1").arg(qpath(file)));
    return true;
}

bool MainWindow::openReport(const fs::path& file) {
    try {
        auto report = std::make_shared<const Report>(loadReportFile(file));
        showReport(report);
        report_file_ = file;
        results_stale_ = false;
        results_source_->setText(tr("Report %1, opened at %2.").arg(qpath(file), now()));
    } catch (const Error& e) {
        error(tr("Open report"), QString::fromStdString(e.what()));
        return false;
    }
    addRecentFile(file);
    message(reportHasScenario()
                ? tr("Opened report %1; File ▸ Edit the report's scenario puts the scenario it "
                     "was run from in the editor.")
                      .arg(qpath(file))
                : tr("Opened report %1").arg(qpath(file)));
    return true;
}

bool MainWindow::reportHasScenario() const {
    const auto report = results_->report();
    return report && report->texts.count("scenario/input") != 0;
}

bool MainWindow::editReportScenario() {
    const auto report = results_->report();
    if (!report) {
        error(tr("Edit the report's scenario"),
              tr("no report is shown: open one first (File ▸ Open report)"));
        return false;
    }
    const QString name = report_file_.empty() ? tr("the report on screen") : qpath(report_file_);
    const auto input = report->texts.find("scenario/input");
    if (input == report->texts.end()) {
        error(tr("Edit the report's scenario"),
              tr("%1 holds no /scenario/input (dctwin run and the GUI write one; this report "
                 "came from another program), so there is no scenario to edit")
                  .arg(name));
        return false;
    }
    Json j;
    try {
        j = parseJson(input->second, name.toStdString() + " /scenario/input");
    } catch (const Error& e) {
        error(tr("Edit the report's scenario"), QString::fromStdString(e.what()));
        return false;
    }
    // Where the run resolved the scenario's relative paths, while that folder is still there;
    // a report copied from another machine falls back to its own folder (files kept beside
    // it), then to the shipped data, as parseScenario always does.
    fs::path base = report_file_.has_parent_path() ? report_file_.parent_path() : fs::path(".");
    if (const auto dir = report->attributes.find("scenario_dir"); dir != report->attributes.end()) {
        std::error_code ec;
        if (fs::is_directory(dir->second, ec)) base = dir->second;
    }
    const QString source = results_source_->text();
    const fs::path report_file = report_file_;
    setScenario(j, base);  // clears the results: put the report back, it is this scenario's
    showReport(report);
    report_file_ = report_file;
    results_source_->setText(source);
    template_stem_ = report_file.empty() ? std::string("report") : report_file.stem().string();
    updateTitle();
    message(tr("The scenario of %1 is in the editor, not saved; its relative paths resolve "
               "against %2. Run (F5) runs it again; Save As (Ctrl+Shift+S) keeps it.")
                .arg(name, qpath(base)));
    return true;
}

bool MainWindow::validateScenario() {
    if (sweep_mode_) {
        try {
            const auto plan = facility::parseSweep(
                model_->toJson(), baseDir(), file_.empty() ? "(unsaved sweep)" : file_.string());
            for (const auto& c : plan.cases) {
                facility::validateModel(facility::parseScenario(c.scenario, plan.base_dir, c.name));
            }
            message(
                tr("Validation passed: all %1 cases of the sweep build.").arg(plan.cases.size()));
            return true;
        } catch (const std::exception& e) {
            error(tr("Validation failed"), QString::fromStdString(e.what()));
            return false;
        }
    }
    if (refuseInvalidForm(tr("Validate"))) return false;
    const QString origin = file_.empty() ? tr("(unsaved scenario)") : qpath(file_);
    QApplication::setOverrideCursor(Qt::WaitCursor);
    bool ok = false;
    try {
        const facility::ScenarioSpec s =
            facility::parseScenario(model_->toJson(), baseDir(), origin.toStdString());
        facility::validateModel(s);
        ok = true;
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        const QString text = QString::fromStdString(e.what());
        error(tr("Validation failed"), text);
        selectPathIn(text);
        return false;
    }
    QApplication::restoreOverrideCursor();
    message(tr("Validation passed: the scenario builds."));
    return ok;
}

bool MainWindow::startRun() {
    if (controller_->isRunning()) {
        error(tr("Run"), tr("a run is already going; cancel it first"));
        return false;
    }
    if (refuseInvalidForm(tr("Run"))) return false;
    const QString origin = file_.empty() ? tr("(unsaved scenario)") : qpath(file_);
    run_source_ = scenarioLabel();
    if (sweep_mode_) {
        // Each sweep writes its summaries into a fresh folder, kept until the next sweep.
        sweep_out_ = std::make_unique<QTemporaryDir>(QDir::tempPath() +
                                                     QStringLiteral("/dctwin-sweep-XXXXXX"));
        if (!sweep_out_->isValid()) {
            error(
                tr("Run"),
                tr("cannot create a folder for the sweep's summaries in %1").arg(QDir::tempPath()));
            return false;
        }
        const int threads = std::max(1, QThread::idealThreadCount());
        controller_->startSweep(model_->toJson(), baseDir(), origin, sweepOutputDir(), threads);
        message(tr("Sweep started: %1 (%2 threads)").arg(origin).arg(threads));
        return true;
    }
    controller_->start(model_->toJson(), baseDir(), origin);
    message(tr("Run started: %1").arg(origin));
    return true;
}

void MainWindow::cancelRun() {
    if (!controller_->isRunning()) return;
    controller_->cancel();
    cancel_button_->setEnabled(false);
    run_label_->setText(tr("Cancelling…"));
}

bool MainWindow::showResultsTab(const QString& title) {
    for (int i = 0; i < results_->count(); ++i) {
        QString t = results_->tabText(i);
        t.remove(QLatin1Char('&'));
        if (results_->isTabVisible(i) && t.compare(title, Qt::CaseInsensitive) == 0) {
            results_->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

QStringList MainWindow::resultsTabTitles() const {
    QStringList out;
    for (int i = 0; i < results_->count(); ++i) {
        if (results_->isTabVisible(i)) out << results_->tabText(i).remove(QLatin1Char('&'));
    }
    return out;
}

void MainWindow::setDisplayUnits(UnitSystem system) {
    setUnitSystem(system);
    (system == UnitSystem::IP ? ip_action_ : si_action_)->setChecked(true);
    results_->refreshUnits();
    form_->refresh();  // the supply temperature in °F or °C
    message(system == UnitSystem::IP
                ? tr("Values shown in IP units (°F, tons of refrigeration for heat, gpm, US "
                     "gallons, psi); the reports stay SI, and a supply temperature typed in "
                     "the form is written as tcs_supply_temp_F.")
                : tr("Values shown in SI units (°C, kW, L/min, m³, kPa)."));
}

void MainWindow::showReport(std::shared_ptr<const Report> report) {
    QStringList lines;
    if (report) {
        for (const std::string& l : facility::notHeld(report->summary)) {
            lines << QString::fromStdString(l);
        }
    }
    not_held_->setText(tr("Not held: %1.").arg(lines.join(QStringLiteral("; "))));
    not_held_->setVisible(!lines.isEmpty());
    results_->setReport(std::move(report));
    updateActions();
}

bool MainWindow::exportHdf5(const fs::path& file) {
    const auto report = results_->report();
    if (!report) {
        error(tr("Export"), tr("nothing to export: run the scenario or open a report first"));
        return false;
    }
    try {
        makeHdf5Writer()->write(*report, file);
    } catch (const Error& e) {
        error(tr("Export HDF5"), QString::fromStdString(e.what()));
        return false;
    }
    message(tr("Report written to %1").arg(qpath(file)));
    return true;
}

bool MainWindow::exportCsv(const fs::path& dir) {
    const auto report = results_->report();
    if (!report) {
        error(tr("Export"), tr("nothing to export: run the scenario or open a report first"));
        return false;
    }
    try {
        makeCsvWriter()->write(*report, dir);
    } catch (const Error& e) {
        error(tr("Export CSV"), QString::fromStdString(e.what()));
        return false;
    }
    message(tr("CSV files written to %1").arg(qpath(dir)));
    return true;
}

bool MainWindow::exportCurrentChartsPng(const fs::path& file) {
    const QList<ChartPanel*> charts = results_->currentCharts();
    if (charts.isEmpty()) {
        error(tr("Export PNG"), tr("the '%1' tab has no chart with data")
                                    .arg(results_->tabText(results_->currentIndex())));
        return false;
    }
    for (int i = 0; i < charts.size(); ++i) {
        fs::path target = file;
        if (charts.size() > 1) {
            target.replace_filename(file.stem().string() + "_" + std::to_string(i + 1) +
                                    file.extension().string());
        }
        QString err;
        if (!charts[i]->savePng(qpath(target), &err)) {
            error(tr("Export PNG"), err);
            return false;
        }
        message(tr("Chart '%1' written to %2").arg(charts[i]->title(), qpath(target)));
    }
    return true;
}

bool MainWindow::exportPdf(const fs::path& file) {
    // Name and study from the scenario the results on screen were run from (the report's
    // /scenario/input, which a run in the app writes too), so a report opened from a file is
    // titled by its own scenario (it read "unnamed scenario"); the editor's when there is none.
    std::optional<Json> shown;
    if (const auto report = results_->report()) {
        if (const auto input = report->texts.find("scenario/input"); input != report->texts.end()) {
            try {
                shown = parseJson(input->second, "/scenario/input");
            } catch (const Error&) {
                // An unreadable copy: the editor's scenario below.
            }
        }
    }
    const auto value = [&](const std::string& pointer) -> std::optional<Json> {
        if (!shown || !shown->is_object()) return model_->value(pointer);
        const Json::json_pointer at(pointer);
        if (!shown->contains(at)) return std::nullopt;
        return shown->at(at);
    };
    PdfReportInfo info;
    const auto name = value("/name");
    info.scenario = name && name->is_string() ? QString::fromStdString(name->get<std::string>())
                                              : tr("unnamed scenario");
    // Results opened from a report file came from the scenario that report holds, whatever
    // the editor has open; results of a run, from the editor's file.
    info.file = !report_file_.empty() ? tr("held in the report %1").arg(qpath(report_file_))
                : !file_.empty()      ? qpath(file_)
                                      : tr("not saved");
    info.run = results_source_->text();
    const auto study = value("/study");
    if (study && study->is_object()) {
        // The length the results cover, as the CLI prints it ("600 s simulated"); a scenario
        // gives it in days, hours or seconds (a contingency's read "Study: contingency").
        QString length;
        if (const auto report = results_->report()) {
            for (const Metric& m : report->summary) {
                if (m.name == "simulated_h" && m.value > 0.0) {
                    length = tr("%1 simulated")
                                 .arg(QString::fromStdString(facility::durationText(m.value)));
                }
            }
        }
        const QString kind = QString::fromStdString(study->value("kind", std::string("?")));
        info.study = length.isEmpty() ? kind : QStringLiteral("%1, %2").arg(kind, length);
    } else {
        info.study = tr("not given");
    }
    QString why;
    const int pages = writePdfReport(qpath(file), *results_, info, &why);
    if (pages == 0) {
        const QString text = tr("could not write '%1': %2").arg(qpath(file), why);
        error(tr("Export PDF"), text);
        auto* box =
            new QMessageBox(QMessageBox::Warning, tr("Export PDF"), text, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();  // not exec(): the message stays readable without blocking the window
        return false;
    }
    message(tr("Report written to %1 (%2 pages)").arg(qpath(file)).arg(pages));
    return true;
}

void MainWindow::selectPathIn(const QString& text) {
    // Error texts name the JSON path ("/cooling/cdu/racks_per_cdu: ..."); select the deepest
    // part of it that exists so the user lands on the value to fix. File paths in the same
    // text do not match the scenario and are skipped.
    static const QRegularExpression re(QStringLiteral("(/[A-Za-z0-9_~.+\\-]+)+"));
    auto it = re.globalMatch(text);
    while (it.hasNext()) {
        std::string p = it.next().captured(0).toStdString();
        while (!p.empty()) {
            const QModelIndex idx = model_->indexForPointer(p);
            if (idx.isValid()) {
                tree_->setCurrentIndex(idx);
                tree_->scrollTo(idx);
                return;
            }
            p.erase(p.rfind('/'));
        }
    }
}

void MainWindow::treeContextMenu(const QPoint& pos) {
    const QModelIndex idx = tree_->indexAt(pos);
    const std::string pointer = model_->jsonPointer(idx).toStdString();
    const auto value = model_->value(pointer);
    QMenu menu;
    if (value && (value->is_object() || value->is_array())) {
        menu.addAction(value->is_object() ? tr("Add key…") : tr("Append element…"), [=, this] {
            QString key = QStringLiteral("-");
            if (value->is_object()) {
                bool ok = false;
                key = QInputDialog::getText(this, tr("Add key"), tr("Key:"), QLineEdit::Normal, {},
                                            &ok);
                if (!ok || key.isEmpty()) return;
            }
            bool ok = false;
            const QString text = QInputDialog::getText(
                this, tr("Value"), tr("JSON value (e.g. 42, \"text\", true, {}, []):"),
                QLineEdit::Normal, QStringLiteral("\"\""), &ok);
            if (!ok) return;
            Json v;
            try {
                v = Json::parse(text.toStdString());
            } catch (const Json::exception& e) {
                error(tr("Add"), tr("'%1' is not JSON: %2").arg(text, e.what()));
                return;
            }
            QString err;
            const std::string child = pointer + "/" + escapeJsonPointerToken(key.toStdString());
            if (value->is_object() && model_->value(child)) {
                error(tr("Add"), tr("%1 exists already").arg(QString::fromStdString(child)));
                return;
            }
            if (!model_->setValue(child, v, &err)) error(tr("Add"), err);
        });
    }
    if (idx.isValid()) {
        menu.addAction(tr("Remove %1").arg(QString::fromStdString(pointer)),
                       [this, pointer] { model_->removeValue(pointer); });
    }
    if (!menu.isEmpty()) menu.exec(tree_->viewport()->mapToGlobal(pos));
}

bool MainWindow::maybeSave() {
    if (!modified_) return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"), tr("The scenario has unsaved changes. Save them?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Save) {
        if (file_.empty()) {
            onSaveAs();
            return !modified_;
        }
        return saveScenario(file_);
    }
    return true;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    controller_->cancel();
    event->accept();
}

void MainWindow::onOpen() {
    if (!maybeSave()) return;
    const QString f = QFileDialog::getOpenFileName(this, tr("Open scenario"),
                                                   QString::fromStdString(scenariosDir().string()),
                                                   tr("Scenarios (*.json);;All files (*)"));
    if (!f.isEmpty()) openScenario(fspath(f));
}

void MainWindow::onSave() {
    if (file_.empty() || isShippedScenario(file_)) {
        if (!file_.empty()) {
            message(tr("%1 is a shipped scenario; choose where to save your copy.")
                        .arg(qpath(file_.filename())));
        }
        onSaveAs();
    } else {
        saveScenario(file_);
    }
}

void MainWindow::onSaveAs() {
    QString f = QFileDialog::getSaveFileName(this, tr("Save scenario as"),
                                             qpath(defaultSaveAsPath()), tr("Scenarios (*.json)"));
    if (f.isEmpty()) return;
    if (!f.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)) f += ".json";
    saveScenario(fspath(f));
}

void MainWindow::onOpenReport() {
    const QString f = QFileDialog::getOpenFileName(this, tr("Open report"), qpath(baseDir()),
                                                   tr("HDF5 reports (*.h5 *.hdf5);;All files (*)"));
    if (!f.isEmpty()) openReport(fspath(f));
}

bool MainWindow::exportDesignPng(const fs::path& file) {
    QString why;
    const bool svg = qpath(file).endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive);
    const OneLineDiagram* d = results_->oneLineDiagram();
    if (!(svg ? d->saveSvg(qpath(file), &why) : d->savePng(qpath(file), &why))) {
        error(tr("Export design page"), why);
        return false;
    }
    message(tr("Wrote the design page to %1").arg(qpath(file)));
    return true;
}

void MainWindow::onExportDesignPng() {
    QString f = QFileDialog::getSaveFileName(this, tr("Export design page"),
                                             qpath(baseDir() / "design.svg"),
                                             tr("SVG drawings (*.svg);;PNG images (*.png)"));
    if (f.isEmpty()) return;
    if (!f.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive) &&
        !f.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)) {
        f += ".svg";
    }
    exportDesignPng(fspath(f));
}

void MainWindow::onExportHdf5() {
    QString f = QFileDialog::getSaveFileName(this, tr("Export report"), qpath(baseDir()),
                                             tr("HDF5 reports (*.h5)"));
    if (f.isEmpty()) return;
    if (!f.endsWith(QStringLiteral(".h5"), Qt::CaseInsensitive)) f += ".h5";
    exportHdf5(fspath(f));
}

void MainWindow::onExportCsv() {
    const QString d =
        QFileDialog::getExistingDirectory(this, tr("Export CSV into folder"), qpath(baseDir()));
    if (!d.isEmpty()) exportCsv(fspath(d));
}

void MainWindow::onExportPdf() {
    // A dialog object rather than getSaveFileName: the default suffix is added before the
    // dialog asks whether to replace an existing file, so ".pdf" never skips that question.
    // Beside the scenario, unless it is a shipped one (then beside where Save As proposes).
    const fs::path dir =
        !file_.empty() && isShippedScenario(file_) ? defaultSaveAsPath().parent_path() : baseDir();
    const std::string stem = file_.empty() ? std::string("scenario") : file_.stem().string();
    QFileDialog dialog(this, tr("Export report as PDF"), qpath(dir / (stem + "_report.pdf")),
                       tr("PDF documents (*.pdf)"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setFileMode(QFileDialog::AnyFile);
    dialog.setDefaultSuffix(QStringLiteral("pdf"));
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return;
    exportPdf(fspath(dialog.selectedFiles().front()));
}

void MainWindow::onExportPng() {
    QString f = QFileDialog::getSaveFileName(
        this, tr("Export charts"),
        qpath(baseDir() / (results_->tabText(results_->currentIndex()).toStdString() + ".png")),
        tr("PNG images (*.png)"));
    if (f.isEmpty()) return;
    if (!f.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive)) f += ".png";
    exportCurrentChartsPng(fspath(f));
}

}  // namespace dctwin::gui
