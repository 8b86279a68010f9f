// dctwin-gui: the desktop front end (DESIGN.md §5.4). All logic is in dctwin_gui_lib; this only
// starts the application and opens the scenario or report named on the command line.
#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>
#include <filesystem>

#include "dctwin/version.h"
#include "gui/main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
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
