// dctwin-gui: the desktop front end (DESIGN.md §5.4). All logic is in dctwin_gui_lib; this only
// starts the application and opens the scenario or report named on the command line.
//
// `dctwin-gui REPORT.h5 --pdf OUT.pdf` writes the printable report without showing a window
// (batch runs: `dctwin run` then this, on a machine with no display), exit status 0 when it is
// written, 2 when the report cannot be read or the PDF cannot be written. `--help` and
// `--version` need no display either; without one, the window cannot open and the app says so
// (exit status 2) instead of aborting in Qt's platform start.
#include <QApplication>
#include <QCommandLineParser>
#include <QRegularExpression>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "dctwin/version.h"
#include "gui/main_window.h"

namespace {
// The last message the window wrote (each starts "[HH:mm:ss] " and may span lines), without
// its time: the reason a batch export failed, or where it wrote the file.
QString lastMessage(const dctwin::gui::MainWindow& w) {
    static const QRegularExpression stamp(QStringLiteral("^\\[\\d\\d:\\d\\d:\\d\\d\\] "),
                                          QRegularExpression::MultilineOption);
    const QString text = w.messagesText();
    QRegularExpressionMatch last;
    for (auto it = stamp.globalMatch(text); it.hasNext();) last = it.next();
    return last.hasMatch() ? text.mid(last.capturedEnd()).trimmed() : text.trimmed();
}

// Qt's handler, restored once the application has started.
QtMessageHandler qt_handler = nullptr;

// While QApplication starts: a fatal message is the platform failing to start (no display, no
// platform plugin), on which Qt aborts (SIGABRT, status 134). Said in the app's words with what
// to do instead, exit status 2 as for any other unusable input. Other messages go to Qt's.
void startupMessage(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (type != QtFatalMsg) {
        if (qt_handler) qt_handler(type, context, message);
        return;
    }
    std::fprintf(stderr,
                 "dctwin-gui: cannot open a window: %s\n"
                 "Run it on a desktop (DISPLAY or WAYLAND_DISPLAY set) or under xvfb-run; "
                 "without a display a report's PDF needs no window: dctwin-gui REPORT.h5 --pdf "
                 "OUT.pdf\n",
                 qPrintable(message.simplified()));
    std::fflush(stderr);
    std::_Exit(2);
}

// Whether argument `a` is `name` or `name=...`.
bool isOption(const char* a, const char* name) {
    const std::size_t n = std::strlen(name);
    return std::strncmp(a, name, n) == 0 && (a[n] == '\0' || a[n] == '=');
}
}  // namespace

int main(int argc, char** argv) {
    // A PDF export shows no window, nor do --help and --version, so they need no display: the
    // offscreen platform unless the caller chose one (checked before QApplication, which
    // connects to the display).
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        const bool windowless = isOption(a, "--pdf") || std::strcmp(a, "--help") == 0 ||
                                std::strcmp(a, "-h") == 0 || std::strcmp(a, "--help-all") == 0 ||
                                std::strcmp(a, "--version") == 0 || std::strcmp(a, "-v") == 0;
        if (windowless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
            qputenv("QT_QPA_PLATFORM", "offscreen");
        }
    }
    qt_handler = qInstallMessageHandler(startupMessage);
    QApplication app(argc, argv);
    qInstallMessageHandler(qt_handler);
    QApplication::setApplicationName(QStringLiteral("dctwin-gui"));
    // QSettings (recent files) under ~/.config/dctwin/dctwin-gui.conf.
    QApplication::setOrganizationName(QStringLiteral("dctwin"));
    QApplication::setApplicationVersion(QString::fromLatin1(dctwin::kVersion));
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Digital twin of liquid-cooled GB300 NVL72 datacenters"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption run(QStringLiteral("run"),
                                 QStringLiteral("run the scenario (or sweep) once it is open"));
    parser.addOption(run);
    const QCommandLineOption tab(QStringLiteral("tab"),
                                 QStringLiteral("show the results tab with this title (Power, "
                                                "Cooling, Water, Summary, Design, ...)"),
                                 QStringLiteral("title"));
    parser.addOption(tab);
    const QCommandLineOption units(QStringLiteral("units"),
                                   QStringLiteral("display units: SI (default) or IP"),
                                   QStringLiteral("system"));
    parser.addOption(units);
    const QCommandLineOption pdf(
        QStringLiteral("pdf"),
        QStringLiteral("write the report's printable PDF to this file and exit (no window)"),
        QStringLiteral("file"));
    parser.addOption(pdf);
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("scenario (.json) or report (.h5) to open"));
    parser.process(app);

    dctwin::gui::MainWindow window;
    if (parser.isSet(units)) {
        const QString u = parser.value(units).toUpper();
        if (u != QStringLiteral("SI") && u != QStringLiteral("IP")) {
            // Exit status 2 for bad usage, as the CLI.
            fprintf(stderr, "dctwin-gui: --units must be SI or IP, not '%s'\n",
                    qPrintable(parser.value(units)));
            return 2;
        }
        window.setDisplayUnits(u == QStringLiteral("IP") ? dctwin::gui::UnitSystem::IP
                                                         : dctwin::gui::UnitSystem::SI);
    }
    if (parser.isSet(pdf)) {
        // Batch export: exactly one report, nothing else that needs a window.
        const QStringList files = parser.positionalArguments();
        const bool report = files.size() == 1 && (files[0].endsWith(QStringLiteral(".h5")) ||
                                                  files[0].endsWith(QStringLiteral(".hdf5")));
        if (!report || parser.isSet(run)) {
            fprintf(stderr,
                    "dctwin-gui: --pdf needs exactly one report (.h5) and no --run, got %s; "
                    "run a scenario first with `dctwin run SCENARIO.json -o REPORT.h5`\n",
                    files.isEmpty() ? "no file" : qPrintable(files.join(QStringLiteral(" "))));
            return 2;
        }
        window.setRemembersFiles(false);
        if (!window.openReport(files[0].toStdString())) {
            fprintf(stderr, "dctwin-gui: %s\n", qPrintable(lastMessage(window)));
            return 2;
        }
        if (!window.exportPdf(parser.value(pdf).toStdString())) {
            fprintf(stderr, "dctwin-gui: %s\n", qPrintable(lastMessage(window)));
            return 2;
        }
        printf("%s\n", qPrintable(lastMessage(window)));
        return 0;
    }
    for (const QString& arg : parser.positionalArguments()) {
        const std::filesystem::path p(arg.toStdString());
        if (p.extension() == ".h5" || p.extension() == ".hdf5") {
            window.openReport(p);
        } else {
            window.openScenario(p);
        }
    }
    if (parser.isSet(tab) && !window.showResultsTab(parser.value(tab))) {
        fprintf(stderr, "dctwin-gui: no results tab '%s' (tabs: %s)\n",
                qPrintable(parser.value(tab)), qPrintable(window.resultsTabTitles().join(", ")));
        return 2;
    }
    window.show();
    // For demonstrations and screenshots: the same as pressing F5 after opening.
    if (parser.isSet(run)) window.startRun();
    return QApplication::exec();
}
