// dctwin-gui's command line without a display (gui/main.cpp): --help and --version print and
// exit 0 on a machine with no display, as a newcomer's first command does; opening a window
// there exits with status 2 and says what to do, where Qt aborted (status 134, SIGABRT) with
// only its platform-plugin message.
#include <gtest/gtest.h>

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace {

struct Result {
    int status = -1;
    bool crashed = false;
    QString out, err;
};

/// dctwin-gui with `args`, no display: DISPLAY and WAYLAND_DISPLAY unset, QT_QPA_PLATFORM as
/// given (unset when empty; ctest sets it to offscreen for the other GUI tests).
Result runWithoutDisplay(const QStringList& args, const QString& platform) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    if (!platform.isEmpty()) env.insert(QStringLiteral("QT_QPA_PLATFORM"), platform);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(DCTWIN_BINARY_DIR "/gui/dctwin-gui"), args);
    Result r;
    if (!p.waitForFinished(60000)) return r;
    r.crashed = p.exitStatus() == QProcess::CrashExit;
    r.status = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

TEST(GuiCommandLine, HelpAndVersionNeedNoDisplay) {
    const Result help = runWithoutDisplay({QStringLiteral("--help")}, QString());
    EXPECT_FALSE(help.crashed) << help.err.toStdString();
    EXPECT_EQ(help.status, 0) << help.err.toStdString();
    for (const char* want : {"--pdf", "--tab", "--units", "--run"}) {
        EXPECT_TRUE(help.out.contains(QString::fromLatin1(want))) << want << " in\n"
                                                                  << help.out.toStdString();
    }
    const Result version = runWithoutDisplay({QStringLiteral("--version")}, QString());
    EXPECT_EQ(version.status, 0) << version.err.toStdString();
    EXPECT_TRUE(version.out.startsWith(QStringLiteral("dctwin-gui "))) << version.out.toStdString();
}

TEST(GuiCommandLine, AWindowWithoutADisplayIsAnErrorThatSaysWhatToDo) {
    // The desktop platform with no display to connect to, and the window asked for (no file;
    // then a scenario to open): no abort, status 2, the reason and the two ways out.
    for (const QStringList& args :
         {QStringList{},
          QStringList{QStringLiteral(DCTWIN_SOURCE_DIR "/scenarios/azure_gb300_64.json")}}) {
        const Result r = runWithoutDisplay(args, QStringLiteral("xcb"));
        EXPECT_FALSE(r.crashed) << r.err.toStdString();
        EXPECT_EQ(r.status, 2) << r.err.toStdString();
        for (const char* want : {"dctwin-gui: cannot open a window", "xvfb-run", "--pdf"}) {
            EXPECT_TRUE(r.err.contains(QString::fromLatin1(want))) << want << " in\n"
                                                                   << r.err.toStdString();
        }
    }
}

}  // namespace
