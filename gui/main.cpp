// dctwin-gui: the desktop front end (DESIGN.md §5.4). All logic is in dctwin_gui_lib; this only
// starts the application and opens the scenario or report named on the command line.
#include <QApplication>
#include <QCommandLineParser>
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
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("scenario (.json) or report (.h5) to open"));
    parser.process(app);

    dctwin::gui::MainWindow window;
    for (const QString& arg : parser.positionalArguments()) {
        const std::filesystem::path p(arg.toStdString());
        if (p.extension() == ".h5" || p.extension() == ".hdf5") {
            window.openReport(p);
        } else {
            window.openScenario(p);
        }
    }
    window.show();
    // For demonstrations and screenshots: the same as pressing F5 after opening.
    if (parser.isSet(run)) window.startRun();
    return QApplication::exec();
}
