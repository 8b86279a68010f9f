#include "gui/run_controller.h"

#include <QMetaObject>
#include <QPointer>
#include <chrono>

#include "core/errors.h"

namespace dctwin::gui {

RunController::RunController(QObject* parent)
    : RunController([](const facility::ScenarioSpec& s,
                       const facility::RunControl& c) { return facility::runScenario(s, c); },
                    parent) {}

RunController::RunController(Runner runner, QObject* parent)
    : QObject(parent), runner_(std::move(runner)) {}

RunController::~RunController() {
    cancel_ = true;
    wait();
}

void RunController::wait() {
    if (worker_.joinable()) worker_.join();
}

void RunController::cancel() {
    if (state_ == State::Running) cancel_ = true;
}

void RunController::deliver(std::function<void()> fn) {
    // Queued onto this object's thread; Qt drops the call if the controller is gone by then
    // (the destructor joins the worker first, so that cannot happen mid-call).
    QMetaObject::invokeMethod(this, std::move(fn), Qt::QueuedConnection);
}

void RunController::begin() {
    wait();  // the previous worker has delivered its result; reap the thread
    cancel_ = false;
    state_ = State::Running;
    last_fraction_ = 0.0;
    last_error_.clear();
    emit started();
}

void RunController::fail(const std::exception& e) {
    // dctwin::Error texts name what to fix; anything else is a bug, but the user still gets its
    // text rather than a dead window.
    const bool ours = dynamic_cast<const Error*>(&e) != nullptr;
    const QString msg = ours ? QString::fromStdString(e.what())
                             : QStringLiteral("internal error: %1").arg(e.what());
    deliver([this, msg] {
        state_ = State::Failed;
        last_error_ = msg;
        emit failed(msg);
    });
}

void RunController::guarded(const std::function<void()>& work) {
    try {
        work();
    } catch (const CancelledError&) {
        deliver([this] {
            state_ = State::Cancelled;
            emit cancelled();
        });
    } catch (const std::exception& e) {
        fail(e);
    } catch (...) {
        deliver([this] {
            state_ = State::Failed;
            last_error_ = QStringLiteral("internal error: unknown exception");
            emit failed(last_error_);
        });
    }
}

bool RunController::startSweep(const Json& sweep, const std::filesystem::path& sweep_dir,
                               const QString& origin, const std::filesystem::path& out_dir,
                               int threads) {
    if (state_ == State::Running) return false;
    begin();
    worker_ =
        std::thread([this, sweep, sweep_dir, out_dir, threads, origin = origin.toStdString()] {
            guarded([&] {
                const facility::SweepPlan plan = facility::parseSweep(sweep, sweep_dir, origin);
                // Cases report when they end; a sweep has few, so every one is posted.
                auto result = std::make_shared<const facility::SweepResult>(facility::runSweep(
                    plan, out_dir, threads,
                    [this](double fraction) {
                        deliver([this, fraction] {
                            last_fraction_ = fraction;
                            emit progress(fraction, 0.0);
                        });
                    },
                    &cancel_));
                if (cancel_) throw CancelledError("sweep cancelled");
                deliver([this, result] {
                    sweep_outcome_ = result;
                    state_ = State::Finished;
                    emit sweepFinished();
                });
            });
        });
    return true;
}

bool RunController::start(const Json& scenario, const std::filesystem::path& base_dir,
                          const QString& origin) {
    if (state_ == State::Running) return false;
    begin();

    worker_ = std::thread([this, scenario, base_dir, origin = origin.toStdString()] {
        using Clock = std::chrono::steady_clock;
        // Only the worker touches these; the GUI thread sees the values through deliver().
        double posted_fraction = -1.0;
        Clock::time_point posted_at{};
        facility::RunControl control;
        control.cancel = &cancel_;
        control.progress = [&](double fraction, double t) {
            const auto now = Clock::now();
            // A run reports every step; the bar needs a few updates per second at most.
            if (fraction < 1.0 && fraction - posted_fraction < 0.005 &&
                now - posted_at < std::chrono::milliseconds(100)) {
                return;
            }
            posted_fraction = fraction;
            posted_at = now;
            deliver([this, fraction, t] {
                last_fraction_ = fraction;
                emit progress(fraction, t);
            });
        };
        guarded([&] {
            const facility::ScenarioSpec parsed =
                facility::parseScenario(scenario, base_dir, origin);
            auto outcome = std::make_shared<const facility::RunOutcome>(runner_(parsed, control));
            const double t_end = outcome->report.timeseries.time.empty()
                                     ? 0.0
                                     : outcome->report.timeseries.time.back();
            deliver([this, outcome, t_end] {
                outcome_ = outcome;
                if (last_fraction_ < 1.0) {
                    last_fraction_ = 1.0;
                    emit progress(1.0, t_end);
                }
                state_ = State::Finished;
                emit finished();
            });
        });
    });
    return true;
}

}  // namespace dctwin::gui
