// Nested division supersteps three levels deep with uneven weights, traced, and the trace printed as a tree.
//
// The job: the sum of work(i) over i in [0, n), split recursively (common-common: every processor ends with the sum).
//   level 0  weighted_par, weights 3:1   — the range cut 3:1, the processors split in proportion (llc::split_sizes)
//   level 1  weighted_par, weights 1:2:3 — each piece cut again 1:2:3
//   level 2  par, two equal halves
//   leaf     a normal superstep: the leaf's processors share their piece (W), then allreduce the partial sums (f)
// Where a group has fewer processors than tasks (P < r), one processor runs several tasks in turn.
//
// Tracing is switched on by the program (llc::Trace::enable); llc::Trace::gather merges every processor's record
// (max over processors, as the CCM charges), and rank 0 writes PREFIX.json (the merged tree) and PREFIX.chrome.json
// (one track per rank: open it at https://ui.perfetto.dev or in chrome://tracing) and prints the tree.
//
// Run:   mpirun -np 4 build/bin/llc-example-nested [PREFIX] [n]        defaults: llc-nested-trace, 4000000

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include <llc/llc.hpp>

namespace {

// A few rounds of splitmix64: some arithmetic per item, so that the computation shows in the trace.
std::uint64_t work(std::uint64_t i) {
    std::uint64_t z = i;
    for (int round = 0; round < 8; ++round) {
        z += 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
    }
    return z;
}

struct Range {
    long long lo;
    long long hi;
};

// Cuts `r` into consecutive pieces whose lengths are proportional to `weights`.
std::vector<Range> cut(Range r, std::span<const double> weights) {
    double total = 0.0;
    for (const double w : weights) {
        total += w;
    }
    std::vector<Range> pieces;
    double before = 0.0;
    for (const double w : weights) {
        const auto lo = r.lo + static_cast<long long>(static_cast<double>(r.hi - r.lo) * (before / total));
        before += w;
        const auto hi = r.lo + static_cast<long long>(static_cast<double>(r.hi - r.lo) * (before / total));
        pieces.push_back({lo, hi});
    }
    pieces.back().hi = r.hi;
    return pieces;
}

// Results travel as {sum mod 2^64, items counted}: exact, so the check below can ask for equality.
using Result = std::vector<std::uint64_t>;

Result add(const Result& a, const Result& b) {
    return {a[0] + b[0], a[1] + b[1]};
}

// The leaf: one normal superstep. Each processor of g sums over its share of the piece, then allreduce.
Result leaf(llc::Group& g, Range r) {
    const llc::Label label("leaf: sum + allreduce");
    const long long length = r.hi - r.lo;
    const long long lo = r.lo + length * g.rank() / g.size();
    const long long hi = r.lo + length * (g.rank() + 1) / g.size();
    std::uint64_t partial = 0;
    for (long long i = lo; i < hi; ++i) {
        partial += work(static_cast<std::uint64_t>(i));
    }
    return {g.allreduce(partial, llc::Op::sum), static_cast<std::uint64_t>(length)};
}

Result level2(llc::Group& g, Range r) {
    const llc::Label label("level 2: par halves");
    const double halves[2] = {1.0, 1.0};
    const std::vector<Range> piece = cut(r, halves);
    auto [a, b] = llc::par(
        g, [&](llc::Group& sub) { return leaf(sub, piece[0]); }, [&](llc::Group& sub) { return leaf(sub, piece[1]); });
    return add(a, b);
}

Result level1(llc::Group& g, Range r) {
    const llc::Label label("level 1: weighted_par 1:2:3");
    const double weights[3] = {1.0, 2.0, 3.0};
    const std::vector<Range> piece = cut(r, weights);
    const std::vector<Result> parts = llc::weighted_par(
        g, weights, [&](llc::Group& sub, int t) { return level2(sub, piece[static_cast<std::size_t>(t)]); });
    return add(add(parts[0], parts[1]), parts[2]);
}

Result level0(llc::Group& g, Range r) {
    const llc::Label label("level 0: weighted_par 3:1");
    const double weights[2] = {3.0, 1.0};
    const std::vector<Range> piece = cut(r, weights);
    const std::vector<Result> parts = llc::weighted_par(
        g, weights, [&](llc::Group& sub, int t) { return level1(sub, piece[static_cast<std::size_t>(t)]); });
    return add(parts[0], parts[1]);
}

std::string sizes_text(const std::vector<int>& sizes) {
    std::string text = "sizes";
    for (const int s : sizes) {
        text += ' ' + std::to_string(s);
    }
    return text;
}

// A time in milliseconds, or blanks where the column does not apply to the node's kind.
std::string ms(bool applies, double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%10.3f", seconds * 1e3);
    return applies ? text : std::string(10, ' ');
}

// One line per node, indented by depth. Times are the maximum over the processors that ran the node.
void print_tree(const llc::TraceNode& node, int depth) {
    using llc::StepKind;
    const std::string name = std::string(2 * static_cast<std::size_t>(depth), ' ') +
                             (node.kind == StepKind::task ? "task " + std::to_string(node.task) : node.label);
    const bool normal = node.kind == StepKind::normal;
    const bool division = node.kind == StepKind::division;
    std::string note;
    if (normal) {
        note = node.op + ", " + std::to_string(node.bytes) + " B";
    } else if (division) {
        note = node.op + ", " + sizes_text(node.sizes) +
               (node.P < static_cast<int>(node.sizes.size()) ? " (P < r: tasks in turn)" : "");
    } else if (node.kind == StepKind::root) {
        note = "merged from " + std::to_string(node.ranks) + " ranks";
    }
    std::printf("%-40s %-8s %3d %s %s %s %s %s  %s\n",
                name.c_str(),
                std::string(llc::to_string(node.kind)).c_str(),
                node.P,
                ms(normal, node.compute).c_str(),
                ms(normal, node.comm).c_str(),
                ms(division, node.split).c_str(),
                ms(division, node.exchange).c_str(),
                ms(true, node.total()).c_str(),
                note.c_str());
    for (const auto& child : node.children) {
        print_tree(child, depth + 1);
    }
}

}  // namespace

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);
    llc::Group& world = llc::Group::world();
    const std::string prefix = argc > 1 ? argv[1] : "llc-nested-trace";
    const long long n = argc > 2 ? std::atoll(argv[2]) : 4000000;
    if (n < 0) {
        if (world.rank() == 0) {
            std::fprintf(stderr, "usage: llc-example-nested [PREFIX] [n]: n = %lld must be >= 0\n", n);
        }
        return 2;
    }

    llc::Trace::enable();  // record from here on (LLC_TRACE=path would do the same for the whole run)
    const Result result = level0(world, {0, n});
    const llc::Trace trace = llc::Trace::gather(world);  // collective; the merged tree lands on rank 0
    llc::Trace::enable(false);

    // The oracle: the same sum by one processor, in one loop. Every processor checks its own copy of the result.
    std::uint64_t expected = 0;
    for (long long i = 0; i < n; ++i) {
        expected += work(static_cast<std::uint64_t>(i));
    }
    const bool ok = result[0] == expected && result[1] == static_cast<std::uint64_t>(n);
    const int wrong = world.allreduce(ok ? 0 : 1, llc::Op::sum);

    if (world.rank() == 0) {
        trace.write_json(prefix + ".json");
        trace.write_chrome(prefix + ".chrome.json");
        std::printf("nested par / weighted_par, three levels, n = %lld, P = %d\n", n, world.size());
        std::printf("times in milliseconds, each the maximum over the processors that ran the superstep\n\n");
        std::printf("%-40s %-8s %3s %10s %10s %10s %10s %10s\n",
                    "superstep (label)",
                    "kind",
                    "P",
                    "compute",
                    "comm",
                    "split",
                    "exchange",
                    "total");
        print_tree(trace.merged(), 0);
        std::printf("result: %s\n", wrong == 0 ? "equals the sequential sum" : "WRONG");
        std::printf("trace: %s.json (merged tree), %s.chrome.json (open at https://ui.perfetto.dev)\n",
                    prefix.c_str(),
                    prefix.c_str());
    }
    return wrong == 0 ? 0 : 1;
}
