#pragma once
/// @file
/// The pure functions behind a division superstep: how many processors each task gets, which processor runs which
/// task, and the partner relation along which results are exchanged (CCM paper §2.1.1, "dynamic polytopes").
///
/// None of these functions communicates; each is deterministic, so every processor computes the same answer.

#include <span>
#include <vector>

namespace llc {

/// Subgroup sizes for r = weights.size() tasks on P processors, proportional to the weights.
///
/// Rules (P ≥ r): the sizes sum to P; every task gets at least one processor; a task with a larger weight never gets
/// fewer processors than one with a smaller weight. The sizes are the Sainte-Laguë (Webster) apportionment with a
/// floor of one: each processor beyond the first r goes to the task with the largest weight / (size + 1/2), ties to
/// the lower index. Equal weights give sizes that differ by at most one, the larger ones first.
/// When P < r there are too few processors for one subgroup per task: the result is r ones (each task runs on a
/// single processor; see assign_tasks for which).
/// @throws llc::Error for P < 1, no weights, a negative or non-finite weight, or weights that are all zero.
[[nodiscard]] std::vector<int> split_sizes(int P, std::span<const double> weights);

/// For P < r: the processor (index in the parent group) that runs each task, by longest-processing-time-first on the
/// weights (the heaviest task goes to the least loaded processor, ties to the lower index). A processor runs its
/// tasks in increasing task order. For P ≥ r, task i runs on the processors of subgroup i and this returns the
/// first processor of each subgroup.
[[nodiscard]] std::vector<int> assign_tasks(int P, std::span<const double> weights);

/// The partner relation: the local indices b in Q_j to which processor a of Q_i sends task i's result, for subgroups
/// of sizes `sizes`. Rule: b mod sizes[i] == a. The relation is exhaustive (every processor of Q_j receives task i's
/// result) and injective (from exactly one processor of Q_i). For i == j the answer is empty. With equal halves of a
/// power of two it is the hypercube: a sends to a.
/// @throws llc::Error for an index out of range or a size < 1.
[[nodiscard]] std::vector<int> partners(std::span<const int> sizes, int i, int a, int j);

/// The processor of Q_i (local index) from which processor b of Q_j receives task i's result: b mod sizes[i].
[[nodiscard]] int partner_source(std::span<const int> sizes, int i, int b, int j);

/// One message of the result exchange of a division: task `task`'s result goes from processor `from` to processor
/// `to` (indices in the parent group).
struct Transfer {
    int task;
    int from;
    int to;
    friend bool operator==(const Transfer&, const Transfer&) = default;
};

/// One processor's part of the result exchange: what it sends (its task's result to its partners in every other
/// subgroup) and what it receives (every other task's result from its partner there), in posting order.
struct ExchangeRole {
    std::vector<Transfer> sends;
    std::vector<Transfer> receives;
};

/// The exchange role of processor `rank` when the group is cut into subgroups of `sizes` (P ≥ r).
[[nodiscard]] ExchangeRole exchange_role(std::span<const int> sizes, int rank);
/// The exchange role of processor `rank` of P when task t runs on processor owners[t] alone (P < r): it sends each of
/// its tasks' results to every other processor and receives every other task's result from its owner.
[[nodiscard]] ExchangeRole exchange_role_owned(int P, std::span<const int> owners, int rank);

/// The whole result exchange of a division of P processors into the tasks of `weights`, as computed by split_sizes
/// and assign_tasks: after it, every processor holds every task's result (the union of every processor's
/// exchange_role). Sorted by (task, to).
[[nodiscard]] std::vector<Transfer> exchange_plan(int P, std::span<const double> weights);

namespace detail {
/// The weight checks of split_sizes, reported under `function`'s name (weighted_par, WEIGHTEDPAR, …).
void check_weights(const char* function, int P, std::span<const double> weights);
}  // namespace detail

}  // namespace llc
