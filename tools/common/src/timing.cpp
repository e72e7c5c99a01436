#include <algorithm>
#include <cmath>

#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

namespace llc::tools {

namespace {
int size_of(MPI_Comm comm) {
    int size = 1;
    MPI_Comm_size(comm, &size);
    return size;
}
}  // namespace

double time_sample(MPI_Comm comm, int batch, const std::function<void()>& body) {
    const int calls = std::max(batch, 1);
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    for (int i = 0; i < calls; ++i) {
        body();
    }
    double elapsed = (MPI_Wtime() - start) / calls;
    MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm);
    return elapsed;
}

double time_sample_on_rank(MPI_Comm comm, int who, int batch, const std::function<void()>& body) {
    const int calls = std::max(batch, 1);
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    for (int i = 0; i < calls; ++i) {
        body();
    }
    double elapsed = rank == who ? (MPI_Wtime() - start) / calls : 0.0;
    MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm);
    return elapsed;
}

int batch_for(MPI_Comm comm, double one_call) {
    if (size_of(comm) > 1 || !(one_call < min_sample_seconds)) {
        return 1;
    }
    const double calls = one_call > 0.0 ? std::ceil(min_sample_seconds / one_call) : max_batch;
    return static_cast<int>(std::clamp(calls, 1.0, static_cast<double>(max_batch)));
}

std::vector<double> sample(MPI_Comm comm, const std::function<void()>& body, const SamplingRule& rule) {
    const int batch = batch_for(comm, time_sample(comm, 1, body));  // the warm-up call
    std::vector<double> samples;
    double spent = 0.0;
    while (true) {
        const double t = time_sample(comm, batch, body);
        samples.push_back(t);
        spent += t * batch;
        const auto count = static_cast<int>(samples.size());
        if (count >= rule.max_samples) {
            break;
        }
        if (count >= rule.min_samples &&
            (spent >= rule.budget_seconds || (rule.target_rse > 0.0 && median_rse(samples) <= rule.target_rse))) {
            break;
        }
    }
    return samples;
}

}  // namespace llc::tools
