// core/data_dir.h: the data folder from DCTWIN_DATA_DIR, from the executable's place (this test
// binary sits in the build tree, so the source tree's data/), and an error that lists every
// place tried when none holds the data.
#include "core/data_dir.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "core/errors.h"

namespace dctwin {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceData = fs::path(DCTWIN_SOURCE_DIR) / "data";

/// Sets (or unsets, with nullopt) DCTWIN_DATA_DIR for one test and restores it afterwards.
class ScopedDataDirEnv {
public:
    explicit ScopedDataDirEnv(const std::optional<std::string>& value) {
        if (const char* old = std::getenv("DCTWIN_DATA_DIR")) old_ = old;
        if (value) {
            ::setenv("DCTWIN_DATA_DIR", value->c_str(), 1);
        } else {
            ::unsetenv("DCTWIN_DATA_DIR");
        }
    }
    ~ScopedDataDirEnv() {
        if (old_) {
            ::setenv("DCTWIN_DATA_DIR", old_->c_str(), 1);
        } else {
            ::unsetenv("DCTWIN_DATA_DIR");
        }
    }
    ScopedDataDirEnv(const ScopedDataDirEnv&) = delete;
    ScopedDataDirEnv& operator=(const ScopedDataDirEnv&) = delete;

private:
    std::optional<std::string> old_;
};

std::string messageOf(const auto& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no InputError";
    return {};
}

TEST(DataDir, FoundFromTheBuildTreeWithoutTheEnvironment) {
    const ScopedDataDirEnv env(std::nullopt);
    const fs::path d = dataDir();
    EXPECT_TRUE(fs::equivalent(d, kSourceData)) << d;
    EXPECT_TRUE(fs::is_directory(d / "catalog" / "power"));
    EXPECT_TRUE(fs::is_directory(d / "weather"));
    EXPECT_TRUE(fs::is_directory(d / "traces"));
    EXPECT_TRUE(fs::is_regular_file(scenariosDir() / "azure_gb300_64.json"));
    // The first place tried is the installed layout beside the executable.
    const auto c = dataDirCandidates();
    ASSERT_GE(c.size(), 2u);
    EXPECT_EQ(c.front().dir.filename(), "data");
    EXPECT_EQ(c.front().dir.parent_path().filename(), "dctwin");
    EXPECT_NE(c.front().origin.find("executable"), std::string::npos) << c.front().origin;
}

TEST(DataDir, EnvironmentVariableIsHonoured) {
    // A copy-free data folder of our own: only catalog/ and coolants/ are required.
    const fs::path own = fs::temp_directory_path() / "dctwin_data_dir_test_env";
    fs::remove_all(own);
    fs::create_directories(own / "catalog");
    fs::create_directories(own / "coolants");
    {
        const ScopedDataDirEnv env(own.string());
        EXPECT_EQ(dataDir(), own);
        ASSERT_EQ(dataDirCandidates().size(), 1u);  // the variable is the only place tried
        EXPECT_EQ(dataDirCandidates().front().origin, "DCTWIN_DATA_DIR");
        EXPECT_EQ(dataFile("data/weather/x.epw"), own / "weather" / "x.epw");
        EXPECT_EQ(dataFile("weather/x.epw"), own / "weather" / "x.epw");
        EXPECT_EQ(dataFile("/abs/x.epw"), fs::path("/abs/x.epw"));
    }
    {
        // The source tree's data through the variable: the scenarios beside it are found too.
        const ScopedDataDirEnv env(kSourceData.string());
        EXPECT_EQ(dataDir(), kSourceData);
        EXPECT_TRUE(fs::equivalent(scenariosDir(), fs::path(DCTWIN_SOURCE_DIR) / "scenarios"));
    }
    {
        // Empty means unset.
        const ScopedDataDirEnv env(std::string{});
        EXPECT_TRUE(fs::equivalent(dataDir(), kSourceData));
    }
    fs::remove_all(own);
}

TEST(DataDir, WrongEnvironmentVariableIsAnErrorNotAFallback) {
    const fs::path missing = fs::temp_directory_path() / "dctwin_data_dir_test_missing";
    fs::remove_all(missing);
    const ScopedDataDirEnv env(missing.string());
    const std::string m = messageOf([] { dataDir(); });
    EXPECT_NE(m.find(missing.string()), std::string::npos) << m;
    EXPECT_NE(m.find("DCTWIN_DATA_DIR"), std::string::npos) << m;
    EXPECT_THROW(dataFile("weather/x.epw"), InputError);
}

TEST(DataDir, NothingFoundListsEveryPlaceTried) {
    const fs::path base = fs::temp_directory_path() / "dctwin_data_dir_test_none";
    fs::remove_all(base);
    fs::create_directories(base / "half" / "catalog");  // no coolants/: not a data folder
    const std::vector<DataDirCandidate> places{
        {base / "a" / "share" / "dctwin" / "data", "installed beside the executable"},
        {base / "half", "source tree of the build folder"},
        {base / "prefix" / "share" / "dctwin" / "data", "install prefix chosen at build time"}};
    const std::string m = messageOf([&] { firstDataDir(places); });
    for (const auto& p : places) {
        EXPECT_NE(m.find(p.dir.string()), std::string::npos) << m;
        EXPECT_NE(m.find(p.origin), std::string::npos) << m;
    }
    EXPECT_NE(m.find("set DCTWIN_DATA_DIR"), std::string::npos) << m;
    // The first place that is a data folder wins.
    fs::create_directories(base / "half" / "coolants");
    EXPECT_EQ(firstDataDir(places), base / "half");
    EXPECT_FALSE(isDataDir(base / "a"));
    EXPECT_TRUE(isDataDir(base / "half"));
    fs::remove_all(base);
}

}  // namespace
}  // namespace dctwin
