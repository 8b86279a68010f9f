#pragma once
// Work spread over the processes of an MPI job (issue 12: sweeps beyond one machine).
//
// The only place that includes <mpi.h>; the rest of the code sees items, strings and ranks.
// Built with MPI when the build switch DCTWIN_MPI is ON (CMake finds Open MPI from Debian's
// libopenmpi-dev); without it, launchedUnderMpi() still recognises an mpirun/srun launch so
// that the command can refuse it with a clear message instead of running the whole sweep once
// per rank.
//
// Scheduling: dynamic load balancing by a coordinator on rank 0. Each worker rank asks for an
// item, runs it, sends its result string back with the next request; rank 0 hands out the next
// index, or "stop" when none is left. Rank 0 also works: its own items run on a thread that
// makes no MPI call, while its main thread serves the requests (MPI_THREAD_FUNNELED is all it
// needs). Items of very different cost (an annual case beside a design-day one) therefore keep
// every rank busy until the queue is empty, and a one-rank job runs every item on rank 0.
// Results come back to rank 0 in item order; the other ranks get none.
//
// A work function must not throw (a sweep turns a member's failure into its result); if it
// does, the rank aborts the MPI job with the message, since the others would wait forever.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace dctwin::parallel {

/// True when the process was started by an MPI launcher (Open MPI's mpirun, PMIx or Slurm's
/// PMI environment) as one of several ranks.
bool launchedUnderMpi();

/// Whether this build can run MPI jobs (DCTWIN_MPI=ON).
bool builtWithMpi();

/// An MPI session: MPI_Init_thread on construction, MPI_Finalize on destruction. Throws Error
/// when the build has no MPI or the launcher's environment cannot be joined.
class MpiSession {
public:
    MpiSession();
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }

private:
    int rank_ = 0, size_ = 1;
};

/// Runs work(i) for every i in [0, n) over the session's ranks (dynamic load balancing, see
/// above). On rank 0 returns the n results in item order and calls done(i, result) as each
/// arrives (progress); on other ranks returns an empty vector. Collective: every rank calls it
/// with the same n.
std::vector<std::string> distribute(
    const MpiSession& session, std::size_t n, const std::function<std::string(std::size_t)>& work,
    const std::function<void(std::size_t, const std::string&)>& done = {});

}  // namespace dctwin::parallel
