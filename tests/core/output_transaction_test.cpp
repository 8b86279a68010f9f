// Issue 14, outputs as one transaction: destinations checked before a run, temporaries renamed
// together only when all were written, an earlier report never replaced by an incomplete one,
// stale temporaries of dead processes cleaned, and no crash on a full file system (reported:
// "No space left on device", then SIGSEGV at exit in HDF5's file-close callbacks).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/io/report_writer.h"
#include "tests/common/expect_error.h"

namespace dctwin {
namespace {

namespace fs = std::filesystem;

Report report(std::size_t samples) {
    Report r;
    r.attributes = {{"generator", "dctwin"}, {"version", "test"}};
    r.texts["scenario/input"] = std::string(2000, 'x');
    r.summary = {{"pue", 1.1, "1"}, {"it_energy_MWh", 4.2, "MWh"}};
    Table t;
    t.path = "sizing/power";
    t.columns.push_back({"element", "", std::vector<std::string>{"ups", "transformer"}});
    t.columns.push_back({"rating", "W", std::vector<double>{1.5e6, 2.5e6}});
    r.tables.push_back(t);
    r.timeseries.start_iso8601 = "2026-07-01T00:00:00";
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int c = 0; c < 6; ++c) {
        Channel ch{"g" + std::to_string(c), "x", "W", "", {}};
        for (std::size_t i = 0; i < samples; ++i) ch.values.push_back(u(rng));  // incompressible
        r.timeseries.channels.push_back(std::move(ch));
    }
    for (std::size_t i = 0; i < samples; ++i) r.timeseries.time.push_back(static_cast<double>(i));
    return r;
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> entries(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

class OutputTransactionTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("dctwin_outputs_" + std::to_string(::getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        for (const auto& m : mounts_)
            std::system(("umount " + m.string() + " 2>/dev/null").c_str());
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    /// A tmpfs of `kib` KiB (options appended), or "" when this machine cannot mount one
    /// (not root, no mount namespace): the caller skips.
    fs::path mountTmpfs(const std::string& name, int kib, const std::string& extra = "") {
        const fs::path m = dir_ / name;
        fs::create_directories(m);
        const std::string cmd = "mount -t tmpfs -o size=" + std::to_string(kib) + "k" + extra +
                                " tmpfs " + m.string() + " 2>/dev/null";
        if (std::system(cmd.c_str()) != 0) return {};
        mounts_.push_back(m);
        return m;
    }
    fs::path dir_;
    std::vector<fs::path> mounts_;
};

TEST_F(OutputTransactionTest, NothingIsRenamedUntilCommit) {
    const fs::path h5 = dir_ / "report.h5", csv = dir_ / "csv", summary = dir_ / "summary.json";
    {
        OutputTransaction t;
        t.stage(*makeHdf5Writer(), report(10), h5);
        t.stage(*makeCsvWriter(), report(10), csv);
        t.stageText(summary, "{}");
        EXPECT_FALSE(fs::exists(h5));
        EXPECT_FALSE(fs::exists(summary));
        EXPECT_FALSE(fs::exists(csv / "timeseries.csv"));
        t.commit();
    }
    EXPECT_TRUE(fs::is_regular_file(h5));
    EXPECT_EQ(slurp(summary), "{}\n");
    EXPECT_EQ(entries(csv),
              (std::vector<std::string>{"sizing_power.csv", "summary.csv", "timeseries.csv"}));
    EXPECT_EQ(entries(dir_), (std::vector<std::string>{"csv", "report.h5", "summary.json"}));
}

TEST_F(OutputTransactionTest, AFailureAfterTheReportKeepsTheOldReportAndLeavesNothing) {
    // Reported: a failing --summary-json left report.h5 written, replaced an existing one, and
    // left summary.json.tmp and an empty csv/ behind.
    const fs::path h5 = dir_ / "report.h5";
    makeHdf5Writer()->write(report(5), h5);
    const std::string old = slurp(h5);
    fs::create_directories(dir_ / "summary.json");  // a directory where the summary goes
    {
        OutputTransaction t;
        t.stage(*makeHdf5Writer(), report(50), h5);
        t.stage(*makeCsvWriter(), report(50), dir_ / "csv");
        EXPECT_THROW(t.stageText(dir_ / "summary.json", "{}"), InputError);
    }  // not committed: rolled back
    EXPECT_EQ(slurp(h5), old);
    EXPECT_EQ(entries(dir_), (std::vector<std::string>{"report.h5", "summary.json"}));
}

TEST_F(OutputTransactionTest, DestinationsAreCheckedBeforeARun) {
    fs::create_directories(dir_ / "adir");
    EXPECT_THROW(checkOutputFile(dir_ / "adir", "report"), InputError);
    EXPECT_THROW(checkOutputFile(dir_ / "missing" / "r.h5", "report"), InputError);
    EXPECT_THROW(checkOutputFile(dir_ / (std::string(300, 'n') + ".h5"), "report"), InputError);
    EXPECT_THROW(checkOutputFile(fs::path(std::string(5000, 'p')) / "r.h5", "report"), InputError);
    EXPECT_NO_THROW(checkOutputFile(dir_ / "new.h5", "report"));
    std::ofstream(dir_ / "afile") << "x";
    EXPECT_THROW(checkOutputDirectory(dir_ / "afile", "CSV report"), InputError);
    EXPECT_THROW(checkOutputDirectory(dir_ / "missing" / "csv", "CSV report"), InputError);
    EXPECT_NO_THROW(checkOutputDirectory(dir_ / "csv", "CSV report"));
    // A folder named with a trailing separator, as the README's `-o out/` names it: its
    // parent is the folder it sits in (the check looked for "csv" itself and refused).
    EXPECT_NO_THROW(checkOutputDirectory((dir_ / "csv").string() + "/", "CSV report"));
    EXPECT_THROW(checkOutputDirectory((dir_ / "missing" / "csv").string() + "/", "CSV report"),
                 InputError);
    EXPECT_FALSE(fs::exists(dir_ / "csv"));  // checking creates nothing
    // ... and leaves nothing: the write check's file is gone.
    EXPECT_EQ(entries(dir_), (std::vector<std::string>{"adir", "afile"}));
}

TEST_F(OutputTransactionTest, AFolderNoFileCanBeCreatedInIsFoundBeforeTheRunEvenForRoot) {
    // /proc takes no new files, whoever asks; access(W_OK) said yes to root, so a report or a
    // summary aimed there failed after the whole simulation (exit 1). The check now creates a
    // file there, as the write will.
    if (!fs::is_directory("/proc/self")) GTEST_SKIP() << "no /proc here";
    test::expectInputError(
        [] { checkOutputFile("/proc/dctwin_summary.json", "summary"); },
        {"cannot write summary '/proc/dctwin_summary.json'", "cannot create a file in '/proc'"});
    test::expectInputError([] { checkOutputDirectory("/proc/dctwin_csv", "CSV report"); },
                           {"cannot write CSV report", "cannot create a file in '/proc'"});
}

TEST_F(OutputTransactionTest, ReadOnlyFolderIsFoundBeforeTheRun) {
    const fs::path ro = mountTmpfs("ro", 256, ",ro");
    if (ro.empty()) GTEST_SKIP() << "cannot mount a tmpfs here (needs root)";
    try {
        checkOutputFile(ro / "report.h5", "report");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("not writable"), std::string::npos) << e.what();
    }
    EXPECT_THROW(checkOutputDirectory(ro / "csv", "CSV report"), InputError);
}

TEST_F(OutputTransactionTest, StaleTemporariesOfDeadProcessesAreRemoved) {
    // Reported: SIGKILL during the write left report.h5.tmp.<pid> that nothing cleaned.
    pid_t dead = ::fork();
    if (dead == 0) ::_exit(0);
    ASSERT_GT(dead, 0);
    ::waitpid(dead, nullptr, 0);  // reaped: the pid no longer runs
    const std::string own = std::to_string(::getpid());
    for (const std::string& name : std::vector<std::string>{
             "report.h5.tmp." + std::to_string(dead), "summary.json.tmp." + std::to_string(dead),
             "report.h5.tmp." + own, "notes.tmp.txt", "report.h5", "x.tmp.12ab"}) {
        std::ofstream(dir_ / name) << "x";
    }
    EXPECT_EQ(removeStaleTemporaries(dir_), 2u);
    EXPECT_EQ(entries(dir_), (std::vector<std::string>{"notes.tmp.txt", "report.h5",
                                                       "report.h5.tmp." + own, "x.tmp.12ab"}));
    // checkOutputFile cleans the folder it checks ("at the next run in that folder").
    std::ofstream(dir_ / ("r.h5.tmp." + std::to_string(dead))) << "x";
    checkOutputFile(dir_ / "r.h5", "report");
    EXPECT_FALSE(fs::exists(dir_ / ("r.h5.tmp." + std::to_string(dead))));
}

TEST_F(OutputTransactionTest, FullFileSystemFailsCleanlyAtEveryFillLevel) {
    // A 1 MiB tmpfs, pre-filled so the report runs out of space at a different point each
    // time (file creation, datasets, flush, close). Every attempt must throw an Error naming
    // the report, leave no temporary and no open HDF5 handle: this process exits normally
    // afterwards (the reported crash came at exit, from HDF5's close callbacks).
    const fs::path full = mountTmpfs("full", 1024);
    if (full.empty()) GTEST_SKIP() << "cannot mount a tmpfs here (needs root)";
    const Report big = report(20000);  // ~1 MB of incompressible doubles
    int failures = 0;
    for (int fill_kib = 0; fill_kib <= 1016; fill_kib += 24) {
        {
            std::ofstream filler(full / "filler", std::ios::binary | std::ios::trunc);
            const std::string block(1024, 'f');
            for (int k = 0; k < fill_kib; ++k) filler << block;
        }
        for (const fs::path& target : {full / "report.h5", full / "csv"}) {
            try {
                OutputTransaction t;
                if (target.extension() == ".h5") {
                    t.stage(*makeHdf5Writer(), big, target);
                } else {
                    t.stage(*makeCsvWriter(), big, target);
                }
                t.commit();
                fs::remove_all(target);
            } catch (const Error& e) {
                ++failures;
                EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos)
                    << e.what();
            }
            EXPECT_EQ(entries(full), std::vector<std::string>{"filler"}) << "fill " << fill_kib;
        }
    }
    EXPECT_GT(failures, 30);
    std::error_code ec;
    fs::remove(full / "filler", ec);
}

TEST_F(OutputTransactionTest, FullFileSystemAfterTheReportKeepsTheOldOne) {
    const fs::path full = mountTmpfs("full", 64);
    if (full.empty()) GTEST_SKIP() << "cannot mount a tmpfs here (needs root)";
    const fs::path h5 = dir_ / "report.h5";
    makeHdf5Writer()->write(report(5), h5);
    const std::string old = slurp(h5);
    {
        OutputTransaction t;
        t.stage(*makeHdf5Writer(), report(100), h5);
        EXPECT_THROW(t.stage(*makeCsvWriter(), report(20000), full / "csv"), Error);
    }
    EXPECT_EQ(slurp(h5), old);
    EXPECT_EQ(entries(dir_), (std::vector<std::string>{"full", "report.h5"}));
    EXPECT_TRUE(fs::is_empty(full));
}

}  // namespace
}  // namespace dctwin
