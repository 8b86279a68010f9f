#pragma once
// Runs a scenario on a background thread for the GUI (DESIGN.md §5.4) and reports back on the
// controller's own thread through queued signals, so widgets never see the worker thread. No
// window is needed: the tests drive it with a QCoreApplication event loop.
//
// Life cycle: start() → started → progress* → exactly one of finished / failed / cancelled.
// cancel() sets the flag that facility::RunControl::cancel points to; the facility then throws
// CancelledError, which becomes the Cancelled state (not a failure, not a crash). The destructor
// cancels a running job and waits for it, so closing the window mid-run is safe.
#include <QObject>
#include <QString>
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <thread>

#include "core/json.h"
#include "facility/scenario.h"
#include "facility/sweep.h"
#include "facility/twin.h"

namespace dctwin::gui {

class RunController : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Running, Finished, Failed, Cancelled };
    /// What a run does once the scenario is parsed; facility::runScenario unless a test
    /// replaces it (to exercise threading and cancel without a full model).
    using Runner = std::function<facility::RunOutcome(const facility::ScenarioSpec&,
                                                      const facility::RunControl&)>;

    explicit RunController(QObject* parent = nullptr);
    RunController(Runner runner, QObject* parent = nullptr);
    ~RunController() override;

    /// Starts a run of `scenario` (relative paths resolve against `base_dir`; `origin` names
    /// the scenario in error messages). Returns false, and does nothing, while a run is going.
    /// Scenario errors arrive as failed() like any other error.
    bool start(const Json& scenario, const std::filesystem::path& base_dir, const QString& origin);
    /// Starts a sweep file's cases (facility::parseSweep + runSweep on `threads` threads),
    /// writing their summaries into `out_dir`. Ends with sweepFinished() (a failed case is a
    /// row with its error, as in the CLI), failed() when the sweep file itself is wrong, or
    /// cancelled(). Returns false while a run is going.
    bool startSweep(const Json& sweep, const std::filesystem::path& sweep_dir,
                    const QString& origin, const std::filesystem::path& out_dir, int threads);
    /// Asks the running job to stop; it ends with cancelled() at the next progress check.
    void cancel();
    /// Blocks until the worker thread has ended (signals still arrive through the event loop).
    void wait();

    State state() const { return state_; }
    bool isRunning() const { return state_ == State::Running; }
    /// The last successful run's outcome (null before the first one).
    std::shared_ptr<const facility::RunOutcome> outcome() const { return outcome_; }
    /// The last finished sweep's result (null before the first one).
    std::shared_ptr<const facility::SweepResult> sweepOutcome() const { return sweep_outcome_; }
    double lastFraction() const { return last_fraction_; }
    QString lastError() const { return last_error_; }

signals:
    void started();
    /// fraction done [0, 1] and simulated time [s]; throttled to a few per second.
    void progress(double fraction, double sim_time_s);
    void finished();
    /// A sweep ended; sweepOutcome() holds its per-case summaries.
    void sweepFinished();
    void failed(const QString& message);
    void cancelled();

private:
    void deliver(std::function<void()> fn);
    void begin();
    void fail(const std::exception& e);
    /// Runs `work` on the worker thread and turns whatever it throws into the signal the GUI
    /// expects (cancelled, failed); shared by single runs and sweeps.
    void guarded(const std::function<void()>& work);

    Runner runner_;
    std::thread worker_;
    std::atomic<bool> cancel_{false};
    State state_ = State::Idle;
    std::shared_ptr<const facility::RunOutcome> outcome_;
    std::shared_ptr<const facility::SweepResult> sweep_outcome_;
    double last_fraction_ = 0.0;
    QString last_error_;
};

}  // namespace dctwin::gui
