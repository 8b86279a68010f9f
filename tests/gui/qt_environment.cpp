// One QApplication for every GUI test (widgets need it; the models and the run controller need
// its event loop). gtest_main runs main(); this registers the application as a global test
// environment before it starts. CTest sets QT_QPA_PLATFORM=offscreen; when the binary is run by
// hand without a display, default to offscreen too instead of aborting.
#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>
#include <cstdlib>
#include <memory>

namespace {

class QtEnvironment : public ::testing::Environment {
public:
    void SetUp() override {
        if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 0);
        app_ = std::make_unique<QApplication>(argc_, argv_);
        // Recent files and other QSettings go to a folder of this run, not the user's config.
        settings_dir_ = std::make_unique<QTemporaryDir>();
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings_dir_->path());
        QSettings::setDefaultFormat(QSettings::NativeFormat);
    }
    void TearDown() override {
        settings_dir_.reset();
        app_.reset();
    }

private:
    int argc_ = 1;
    char name_[10] = "gui_tests";
    char* argv_[2] = {name_, nullptr};
    std::unique_ptr<QApplication> app_;
    std::unique_ptr<QTemporaryDir> settings_dir_;
};

[[maybe_unused]] ::testing::Environment* const kQtEnvironment =
    ::testing::AddGlobalTestEnvironment(new QtEnvironment);

}  // namespace
