// MPI coordinator/worker queue (see work_queue.h). Only this file includes <mpi.h>.
#include "core/parallel/work_queue.h"

#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "core/errors.h"

#ifdef DCTWIN_HAVE_MPI
#include <mpi.h>
#endif

namespace dctwin::parallel {

bool launchedUnderMpi() {
    // Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE; PMIx launchers PMIX_RANK; Slurm's srun with
    // PMI/PMI2 sets PMI_SIZE. A size of 1 is a singleton: nothing to spread.
    for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
        if (const char* v = std::getenv(var)) return std::atoi(v) > 1;
    }
    return std::getenv("PMIX_RANK") != nullptr;
}

#ifdef DCTWIN_HAVE_MPI

bool builtWithMpi() { return true; }

namespace {

constexpr int kTagResult = 1;  // worker → rank 0: int64 item (−1: first request), then result
constexpr int kTagAssign = 2;  // rank 0 → worker: int64 next item, −1 = stop

void check(int rc, const char* what) {
    if (rc == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    throw Error(fmt::format("MPI: {} failed: {}", what, std::string(text, len)));
}

std::string packResult(std::int64_t item, const std::string& result) {
    std::string msg(sizeof item, '\0');
    std::memcpy(msg.data(), &item, sizeof item);
    return msg + result;
}

/// Calls work(i), aborting the whole job if it throws: the other ranks would otherwise wait
/// for this rank's answer forever.
std::string runItem(const std::function<std::string(std::size_t)>& work, std::size_t i) {
    try {
        return work(i);
    } catch (const std::exception& e) {
        std::cerr << fmt::format("dctwin: item {} threw on an MPI rank: {}\n", i, e.what());
    }
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::abort();
}

}  // namespace

MpiSession::MpiSession() {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (initialised) throw Error("MPI: a second MPI session in one process");
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    if (provided < MPI_THREAD_FUNNELED) {
        MPI_Finalize();
        throw Error("MPI: the library does not provide MPI_THREAD_FUNNELED");
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

std::vector<std::string> distribute(
    const MpiSession& session, std::size_t n, const std::function<std::string(std::size_t)>& work,
    const std::function<void(std::size_t, const std::string&)>& done) {
    if (session.rank() != 0) {
        // Worker: ask, run, answer with the result and so ask again, until told to stop.
        std::string msg = packResult(-1, "");
        for (;;) {
            check(MPI_Send(msg.data(), static_cast<int>(msg.size()), MPI_BYTE, 0, kTagResult,
                           MPI_COMM_WORLD),
                  "MPI_Send (result)");
            std::int64_t item = -1;
            check(MPI_Recv(&item, 1, MPI_INT64_T, 0, kTagAssign, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                  "MPI_Recv (assignment)");
            if (item < 0) return {};
            msg = packResult(item, runItem(work, static_cast<std::size_t>(item)));
        }
    }

    // Rank 0: coordinator on this thread, its own share of the items on a local thread.
    std::vector<std::string> results(n);
    std::size_t next = 0, finished = 0;
    int stopped = 0;
    auto record = [&](std::size_t i, std::string r) {
        results[i] = std::move(r);
        ++finished;
        if (done) done(i, results[i]);
    };

    std::mutex m;
    std::condition_variable cv;
    std::optional<std::size_t> local_item;  // given to the local thread, not yet taken
    std::optional<std::size_t> local_done;  // finished by the local thread
    std::string local_result;
    bool local_busy = false, local_quit = false;
    std::thread local([&] {
        for (;;) {
            std::size_t i;
            {
                std::unique_lock lock(m);
                cv.wait(lock, [&] { return local_item.has_value() || local_quit; });
                if (!local_item) return;
                i = *local_item;
                local_item.reset();
            }
            std::string r = runItem(work, i);
            std::lock_guard lock(m);
            local_done = i;
            local_result = std::move(r);
        }
    });

    const int workers = session.size() - 1;
    while (finished < n || stopped < workers) {
        bool idle = true;
        {
            std::lock_guard lock(m);
            if (local_done) {
                record(*local_done, std::move(local_result));
                local_done.reset();
                local_busy = false;
                idle = false;
            }
            if (!local_busy && next < n) {
                local_item = next++;
                local_busy = true;
                cv.notify_one();
                idle = false;
            }
        }
        int flag = 0;
        MPI_Status status;
        check(MPI_Iprobe(MPI_ANY_SOURCE, kTagResult, MPI_COMM_WORLD, &flag, &status), "MPI_Iprobe");
        if (flag) {
            int bytes = 0;
            MPI_Get_count(&status, MPI_BYTE, &bytes);
            std::string msg(static_cast<std::size_t>(bytes), '\0');
            check(MPI_Recv(msg.data(), bytes, MPI_BYTE, status.MPI_SOURCE, kTagResult,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                  "MPI_Recv (result)");
            std::int64_t item = -1;
            std::memcpy(&item, msg.data(), sizeof item);
            if (item >= 0) record(static_cast<std::size_t>(item), msg.substr(sizeof item));
            std::int64_t assign = -1;
            if (next < n) {
                assign = static_cast<std::int64_t>(next++);
            } else {
                ++stopped;
            }
            check(MPI_Send(&assign, 1, MPI_INT64_T, status.MPI_SOURCE, kTagAssign, MPI_COMM_WORLD),
                  "MPI_Send (assignment)");
            idle = false;
        }
        // Polling keeps rank 0's main thread free of blocking calls, so its own item and the
        // workers' requests are served together; 1 ms is nothing beside a case's seconds.
        if (idle) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    {
        std::lock_guard lock(m);
        local_quit = true;
    }
    cv.notify_one();
    local.join();
    return results;
}

#else  // built without MPI

bool builtWithMpi() { return false; }

MpiSession::MpiSession() {
    throw Error(
        "this dctwin was built without MPI (DCTWIN_MPI=OFF); install Debian's libopenmpi-dev "
        "and openmpi-bin and rebuild with -DDCTWIN_MPI=ON to run it under mpirun");
}

MpiSession::~MpiSession() = default;

std::vector<std::string> distribute(const MpiSession&, std::size_t,
                                    const std::function<std::string(std::size_t)>&,
                                    const std::function<void(std::size_t, const std::string&)>&) {
    throw Error("this dctwin was built without MPI (DCTWIN_MPI=OFF)");
}

#endif

}  // namespace dctwin::parallel
