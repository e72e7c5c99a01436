// llc-compare contour-ranking: contour tracing and ranking (algorithms/contour_ranking: trace_contours, contour_rank
// of the borders, contours) at the world's P against OpenCV's cv::findContours (RETR_LIST, CHAIN_APPROX_NONE) on the
// same random blob image (llc::random_blob_image), and against our own run on one processor, timed interleaved.
//
// Rows, per n (default 4096; n × n pixels), the image distributed by block_of:
//   trace+rank+contours  the headline, equal work: trace_contours + contour_rank + contours(), every border's ordered
//                        point list gathered on rank 0, as findContours gives them
//   trace + rank, no point lists: not equal work
//                        trace_contours + contour_rank only: every border state knows its contour and position, but no
//                        point list is built (findContours builds them), so this row flatters us
//   ours-P1-others-asleep  (P > 1) the peer column of both rows: our P = 1 on rank 0 while the other ranks sleep
//                        (tools::sleepy_barrier) instead of spinning in the timer's closing reduction, timed on rank
//                        0's clock. A spinning rank shares what the host gives the run (issue slots, caches) with
//                        rank 0, and the 17:13 quiet run measured ours-P1 at 10.68 ms inside the P = 2 run against
//                        9.60 ms in the P = 1 run: this row says which of the two P = 2's speed-up should be read
//                        against.
// The peer is findContours in its fastest configuration that gives our point lists: CHAIN_APPROX_NONE is the only
// method that keeps every point, and RETR_LIST is the cheapest mode (no hierarchy). OpenCV and our one-processor runs
// are on rank 0 while the other ranks wait; OpenCV with one thread (findContours is sequential anyway).
//
// Before timing, rank 0 checks that our contours at P and at P = 1 are OpenCV's, and the run fails (exit status 1,
// the difference named) if not. Equivalence: the same multiset of contours, a contour being its pixel sequence as a
// cycle (the same pixels in the same cyclic order and direction, from any starting point: ours start at the border's
// topmost-leftmost state, OpenCV's where its raster scan met the border) together with its outer/hole flag (OpenCV's
// from findContours(RETR_CCOMP): a contour with a parent is a hole); the RETR_LIST contours timed are checked the same
// way without the flags.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <map>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <utility>
#include <vector>

#include <mpi.h>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/contour_ranking.hpp>
#include <llc/group.hpp>
#include <llc/tools/comparison.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

#include "card.hpp"

namespace llc::cards {

namespace {

/// LLC_COMPARE_PHASES=1 (diagnosis, off by default: no clock is read then): every call of ours notes on each rank the
/// wall and thread-CPU time of its three phases (trace, rank, contours; the wall time of a phase includes the waits
/// in its collectives, the CPU time includes a spinning wait too but not a descheduled one), its involuntary context
/// switches and minor page faults; each rank prints its medians on stderr at the end, so that a quiet run says where
/// P = 2's wall time goes, rank by rank.
class PhaseLog {
  public:
    static bool on() {
        static const bool wanted = [] {
            const char* v = std::getenv("LLC_COMPARE_PHASES");
            return v != nullptr && std::string(v) != "0";
        }();
        return wanted;
    }
    /// Starts a call's record under `tag`.
    void start(std::string tag) {
        tag_ = std::move(tag);
        last_ = now();
    }
    /// Ends phase `phase` of the call started last.
    void lap(const std::string& phase) {
        const Stamp t = now();
        samples_[tag_ + " " + phase + " wall ms"].push_back(1e3 * (t.wall - last_.wall));
        samples_[tag_ + " " + phase + " cpu ms"].push_back(1e3 * (t.cpu - last_.cpu));
        samples_[tag_ + " " + phase + " invol. switches"].push_back(static_cast<double>(t.switches - last_.switches));
        samples_[tag_ + " " + phase + " minor faults"].push_back(static_cast<double>(t.faults - last_.faults));
        last_ = t;
    }
    /// Collective over `world`: each rank's medians on stderr, rank by rank.
    void print(Group& world) const {
        for (int r = 0; r < world.size(); ++r) {
            world.barrier();
            if (r == world.rank()) {
                for (const auto& [key, values] : samples_) {
                    std::fprintf(stderr,
                                 "phases rank %d: %-48s median %9.3f  min %9.3f  (%zu calls)\n",
                                 r,
                                 key.c_str(),
                                 tools::median(values),
                                 *std::min_element(values.begin(), values.end()),
                                 values.size());
                }
                std::fflush(stderr);
            }
        }
    }

  private:
    struct Stamp {
        double wall = 0.0;
        double cpu = 0.0;
        long switches = 0;
        long faults = 0;
    };
    static Stamp now() {
        timespec cpu{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
        rusage usage{};
        getrusage(RUSAGE_THREAD, &usage);
        return {MPI_Wtime(),
                static_cast<double>(cpu.tv_sec) + 1e-9 * static_cast<double>(cpu.tv_nsec),
                usage.ru_nivcsw,
                usage.ru_minflt};
    }
    std::string tag_;
    Stamp last_;
    std::map<std::string, std::vector<double>> samples_;
};

/// Ours on `g`: the blob image's block, traced and ranked (and assembled on g's rank 0 when asked). `log`, when
/// given, notes each call's phases under `tag`.
struct Ours {
    Ours(
        Group& g, const std::vector<std::uint8_t>& whole, std::int64_t n, PhaseLog* log = nullptr, std::string tag = {})
        : group(g), image(BinaryImage::from_whole(g, n, n, whole)), phases(log), name(std::move(tag)) {}
    void operator()(bool assemble) {
        if (phases != nullptr) {
            phases->start(name + (assemble ? " +contours" : " no-lists"));
        }
        const BorderMap borders = trace_contours(group, image);
        lap("1 trace");
        const std::vector<ContourRank> ranks = contour_rank(group, borders);
        lap("2 rank");
        if (assemble) {
            found = contours(group, borders, ranks);
            lap("3 contours");
        }
    }
    void lap(const char* phase) const {
        if (phases != nullptr) {
            phases->lap(phase);
        }
    }
    Group& group;
    BinaryImage image;
    std::vector<Contour> found;
    PhaseLog* phases;
    std::string name;
};

/// A contour as a cycle: its hole flag (0 outer, 1 hole, 2 not known) and its pixels (row·n + col) rotated to their
/// lexicographically least rotation, so that the same cyclic sequence from any start compares equal.
using Cycle = std::pair<int, std::vector<std::int64_t>>;

std::vector<std::int64_t> least_rotation(const std::vector<std::int64_t>& s) {
    // The two-candidate scan for the minimal rotation: O(length).
    const std::size_t n = s.size();
    std::size_t i = 0;
    std::size_t j = 1;
    std::size_t k = 0;
    while (i < n && j < n && k < n) {
        const std::int64_t a = s[(i + k) % n];
        const std::int64_t b = s[(j + k) % n];
        if (a == b) {
            ++k;
            continue;
        }
        (a > b ? i : j) += k + 1;
        j += i == j ? 1 : 0;
        k = 0;
    }
    const std::size_t start = n == 0 ? 0 : std::min(i, j);
    std::vector<std::int64_t> out(s.begin() + static_cast<std::ptrdiff_t>(start), s.end());
    out.insert(out.end(), s.begin(), s.begin() + static_cast<std::ptrdiff_t>(start));
    return out;
}

/// Our contours as sorted cycles (with their hole flags when `holes`).
std::vector<Cycle> cycles_of(const std::vector<Contour>& contours, std::int64_t n, bool holes) {
    std::vector<Cycle> out;
    for (const Contour& c : contours) {
        std::vector<std::int64_t> pixels;
        pixels.reserve(c.points.size());
        for (const ContourPoint& p : c.points) {
            pixels.push_back(p.row * n + p.col);
        }
        out.emplace_back(holes ? (c.hole ? 1 : 0) : 2, least_rotation(pixels));
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// OpenCV's contours as sorted cycles, with hole flags when a hierarchy (RETR_CCOMP) is given.
std::vector<Cycle> cycles_of(const std::vector<std::vector<cv::Point>>& contours,
                             const std::vector<cv::Vec4i>* hierarchy,
                             std::int64_t n) {
    std::vector<Cycle> out;
    for (std::size_t k = 0; k < contours.size(); ++k) {
        std::vector<std::int64_t> pixels;
        pixels.reserve(contours[k].size());
        for (const cv::Point& p : contours[k]) {
            pixels.push_back(static_cast<std::int64_t>(p.y) * n + p.x);
        }
        const int hole = hierarchy == nullptr ? 2 : ((*hierarchy)[k][3] >= 0 ? 1 : 0);
        out.emplace_back(hole, least_rotation(pixels));
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// Throws, naming the run and the first difference, unless `ours` and `theirs` are the same cycles.
void check_same(const std::vector<Cycle>& ours,
                const std::vector<Cycle>& theirs,
                const std::string& what,
                std::int64_t n) {
    if (ours == theirs) {
        return;
    }
    const auto [a, b] = std::mismatch(ours.begin(), ours.end(), theirs.begin(), theirs.end());
    const auto describe = [&](const std::vector<Cycle>::const_iterator& it, const std::vector<Cycle>& all) {
        if (it == all.end()) {
            return std::string("none");
        }
        const std::int64_t first = it->second.empty() ? -1 : it->second.front();
        return std::string(it->first == 1 ? "a hole" : "a contour") + " of " + std::to_string(it->second.size()) +
               " points from (" + std::to_string(first / n) + ", " + std::to_string(first % n) + ")";
    };
    throw std::runtime_error("llc-compare contour-ranking: n = " + std::to_string(n) + ": " + what +
                             " differ from OpenCV's findContours (" + std::to_string(ours.size()) + " against " +
                             std::to_string(theirs.size()) + " contours); first difference: ours " + describe(a, ours) +
                             ", OpenCV's " + describe(b, theirs));
}

/// On rank 0: our contours at P (`at_p`) and at P = 1 (`at_1`) against OpenCV's RETR_CCOMP (point lists and hole
/// flags) and against the RETR_LIST contours `list` that the timing runs (point lists).
void check_against_opencv(const std::vector<Contour>& at_p,
                          const std::vector<Contour>& at_1,
                          const cv::Mat& source,
                          const std::vector<std::vector<cv::Point>>& list,
                          std::int64_t n,
                          int P) {
    std::vector<std::vector<cv::Point>> ccomp;
    std::vector<cv::Vec4i> hierarchy;
    cv::findContours(source, ccomp, hierarchy, cv::RETR_CCOMP, cv::CHAIN_APPROX_NONE);
    const std::vector<Cycle> theirs = cycles_of(ccomp, &hierarchy, n);
    const std::vector<Cycle> theirs_list = cycles_of(list, nullptr, n);
    const std::string p = "our contours at P = " + std::to_string(P);
    check_same(cycles_of(at_p, n, true), theirs, p + " (with hole flags, against RETR_CCOMP)", n);
    check_same(cycles_of(at_1, n, true), theirs, "our contours at P = 1 (with hole flags, against RETR_CCOMP)", n);
    check_same(cycles_of(at_p, n, false), theirs_list, p + " (against RETR_LIST)", n);
}

/// Our P = 1 on rank 0 (`one`) while the other ranks sleep: they wait in tools::sleepy_barrier, rank 0 meets them in
/// the same nonblocking barrier once done (they entered it first, so it completes at once and rank 0 does not sleep).
void one_while_others_sleep(Group& world, std::optional<Ours>& one, bool assemble) {
    if (world.rank() != 0) {
        tools::sleepy_barrier(world.native());
        return;
    }
    const std::string name = one->name;
    one->name += " others-asleep";  // its phases apart from those beside spinning ranks
    (*one)(assemble);
    one->name = name;
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ibarrier(world.native(), &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
}

/// As compare::time_medians_interleaved (the same rotation, one warm-up call each), but the bodies from index
/// `on_root` on are timed on rank 0's clock alone (tools::time_sample_on_rank): their other ranks only wait.
std::vector<double> medians_interleaved(Group& world,
                                        int repeat,
                                        const std::vector<std::function<void()>>& bodies,
                                        std::size_t on_root) {
    const auto take = [&](std::size_t b) {
        return b < on_root ? tools::time_sample(world.native(), 1, bodies[b]).seconds
                           : tools::time_sample_on_rank(world.native(), 0, 1, bodies[b]).seconds;
    };
    std::vector<std::vector<double>> samples(bodies.size());
    for (std::size_t b = 0; b < bodies.size(); ++b) {
        (void)take(b);
    }
    for (int i = 0; i < repeat; ++i) {
        for (std::size_t k = 0; k < bodies.size(); ++k) {
            const std::size_t b = (static_cast<std::size_t>(i) + k) % bodies.size();
            samples[b].push_back(take(b));
        }
    }
    std::vector<double> medians;
    for (auto& s : samples) {
        medians.push_back(tools::median(std::move(s)));
    }
    return medians;
}

std::vector<Row> run(Group& world, const Options& options) {
    const std::vector<std::int64_t> sizes = options.sizes.empty() ? std::vector<std::int64_t>{4096} : options.sizes;
    const int repeat = options.repeat > 0 ? options.repeat : 9;
    const int P = world.size();
    cv::setNumThreads(1);
    std::vector<Row> rows;
    PhaseLog phases;
    for (const std::int64_t n : sizes) {
        const std::vector<std::uint8_t> whole = random_blob_image(n, n, 20261125);
        advise_huge_pages(whole);
        const int side = static_cast<int>(n);
        const cv::Mat source(side, side, CV_8U, const_cast<std::uint8_t*>(whole.data()));
        std::vector<std::vector<cv::Point>> found;
        PhaseLog* log = PhaseLog::on() ? &phases : nullptr;
        const std::string at = "n=" + std::to_string(n);
        Ours ours(world, whole, n, log, at + " P=" + std::to_string(P));
        ours(true);
        std::optional<Ours> one;  // ours on rank 0 alone
        if (world.rank() == 0) {
            one.emplace(world.self(), whole, n, log, at + " P=1");
            (*one)(true);
            cv::findContours(source, found, cv::RETR_LIST, cv::CHAIN_APPROX_NONE);
            check_against_opencv(ours.found, one->found, source, found, n, P);
        }
        for (const bool assemble : {true, false}) {
            std::vector<std::function<void()>> bodies{[&] { ours(assemble); },
                                                      [&] {
                                                          if (one) {
                                                              (*one)(assemble);
                                                          }
                                                      },
                                                      [&] {
                                                          if (world.rank() == 0) {
                                                              cv::findContours(
                                                                  source, found, cv::RETR_LIST, cv::CHAIN_APPROX_NONE);
                                                          }
                                                      }};
            if (P > 1) {
                bodies.emplace_back([&] { one_while_others_sleep(world, one, assemble); });
            }
            const std::vector<double> time = medians_interleaved(world, repeat, bodies, 3);
            const std::string name = assemble ? "trace+rank+contours" : "trace + rank, no point lists: not equal work";
            rows.push_back({name, P, n, time[0], "opencv-findContours", time[2]});
            rows.push_back({name, P, n, time[0], "ours-P1", time[1]});
            if (P > 1) {
                rows.push_back({name, P, n, time[0], "ours-P1-others-asleep", time[3]});
            }
        }
    }
    if (PhaseLog::on()) {
        phases.print(world);
    }
    return rows;
}

}  // namespace

Comparison contour_ranking_comparison() {
    return {"contour-ranking",
            "contour tracing + ranking + point lists of a blob image vs OpenCV findContours (RETR_LIST, "
            "CHAIN_APPROX_NONE) and vs our P = 1 (equal work; then trace + rank alone, no point lists: not equal work)",
            run};
}

}  // namespace llc::cards
