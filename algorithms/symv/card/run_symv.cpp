// llc-run symv: y = αAx + βy for a generated symmetric matrix on the ring (algorithms/symv).
//
//   mpirun -np P llc-run symv (--n N [--seed S] | --matrix A.raw --vector X.raw) [--mapping reflection|standard]
//                             [--no-overlap] [--alpha A] [--beta B] [--check] [--output Y.raw|Y.txt]
//                             [--repeat K] [--profile F] [--json]
//
// The matrix and the vectors are generated from the seed, entry by entry (input.hpp: a_ij, x_i, y_i uniform in
// [−1, 1) from a hash of (seed, i, j)), so every rank builds only its own rows and the same input comes out at every
// P. Prints ‖y‖₂, the largest error against a plain loop over the full matrix on rank 0 (--check, O(n²) there; exit
// status 1 beyond the bound), the measured median time of one product (the matrix built once, outside the timing, as
// a reused operator) and the CCM prediction. --matrix and --vector read raw little-endian float64 files instead: the
// matrix full, n × n row-major, of which only the lower triangle is read (each rank reads the rows it holds), x of n
// entries (n is the vector file's size / 8); y starts at 0 then. --output writes y on rank 0 in the format its
// extension names: .raw or .bin raw float64, .txt or .csv text (one value a line); --out, deprecated, as text whatever
// the extension; both whole or not at all.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <llc/algorithms/symv.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/profile.hpp>
#include <llc/tools/run_command.hpp>

#include "card.hpp"
#include "input.hpp"

namespace llc::cards {

namespace {

void add_options(po::options_description& desc) {
    // clang-format off
    desc.add_options()
        ("n", po::value<std::int64_t>(), "matrix order of a generated matrix")
        ("matrix", po::value<std::string>(), "raw float64 n × n row-major matrix (lower triangle read), with --vector")
        ("vector", po::value<std::string>(), "raw float64 x of n entries, with --matrix (y starts at 0)")
        ("seed", po::value<std::uint64_t>()->default_value(1), "seed of the generated matrix and vectors")
        ("mapping", po::value<std::string>()->default_value("reflection"), "reflection (packed, article [3] §3) or standard (full rows, §2)")
        ("no-overlap", po::bool_switch(), "blocking shifts instead of split-phase ones")
        ("alpha", po::value<double>()->default_value(1.0), "α of y = αAx + βy")
        ("beta", po::value<double>()->default_value(0.0), "β of y = αAx + βy")
        ("check", po::bool_switch(), "compare with a plain loop over the full matrix on rank 0 (O(n²) there)")
        ("output", po::value<std::string>(), "FILE.raw|.bin: y as little-endian float64; FILE.txt|.csv: y as text, one value a line; on rank 0")
        ("out", po::value<std::string>(), "deprecated: y as text whatever the extension (use --output FILE.txt)");
    // clang-format on
}

struct Options {
    std::int64_t n = 0;
    SymvInput input;
    SymvMapping mapping = SymvMapping::reflection;
    bool overlap = true;
    double alpha = 1.0;
    double beta = 0.0;
    bool check = false;
    std::string out;
    std::string output;
    bool output_text = false;  ///< --output FILE.txt|.csv
    std::string matrix;        ///< raw float64 n × n row-major (lower triangle read); empty: generated
    std::string vector;        ///< raw float64 x of n entries
};

/// n from the input files: the vector's length, the matrix n × n float64. @throws UsageError on every rank naming the
/// file for a missing file or a size that does not fit.
std::int64_t input_order(Group& world, const std::string& matrix, const std::string& vector) {
    std::string error;
    std::int64_t n = 0;
    try {
        const std::uintmax_t x_bytes = run::file_size(vector);
        if (x_bytes == 0 || x_bytes % sizeof(double) != 0) {
            error = "--vector: input file '" + vector + "' has " + std::to_string(x_bytes) +
                    " bytes, not a positive number of float64 values";
        } else {
            n = static_cast<std::int64_t>(x_bytes / sizeof(double));
            (void)run::checked_elements("--matrix '" + matrix + "' (n from --vector)", n, n);
            const std::uintmax_t a_bytes = run::file_size(matrix);
            const auto expected = static_cast<std::uintmax_t>(n) * static_cast<std::uintmax_t>(n) * sizeof(double);
            if (a_bytes != expected) {
                error = "--matrix: input file '" + matrix + "' has " + std::to_string(a_bytes) + " bytes; an " +
                        std::to_string(n) + " × " + std::to_string(n) + " float64 matrix (n from --vector) has " +
                        std::to_string(expected);
            }
        }
    } catch (const UsageError& e) {
        error = e.what();
    }
    run::agree(world, error.empty(), error);
    return n;
}

/// The options checked: UsageError (on every rank) naming the option; n read from the files with --matrix.
Options symv_options(Group& world, const po::variables_map& vm) {
    Options o;
    if ((vm.count("matrix") != 0U) != (vm.count("vector") != 0U)) {
        throw UsageError(vm.count("matrix") != 0U ? "--vector: give x with --matrix"
                                                  : "--matrix: give A with --vector");
    }
    o.mapping = run::enum_option(
        "--mapping", vm["mapping"].as<std::string>(), {SymvMapping::reflection, SymvMapping::standard});
    if (vm.count("matrix") != 0U) {
        if (vm.count("n") != 0U) {
            throw UsageError("--n: not with --matrix (n is the vector file's length)");
        }
        o.matrix = vm["matrix"].as<std::string>();
        o.vector = vm["vector"].as<std::string>();
        o.n = input_order(world, o.matrix, o.vector);
    } else {
        if (vm.count("n") == 0U || vm["n"].as<std::int64_t>() < 1) {
            throw UsageError("--n: give the matrix order, at least 1");
        }
        o.n = vm["n"].as<std::int64_t>();
    }
    o.input.seed = vm["seed"].as<std::uint64_t>();
    o.overlap = !vm["no-overlap"].as<bool>();
    o.alpha = vm["alpha"].as<double>();
    o.beta = vm["beta"].as<double>();
    o.check = vm["check"].as<bool>();
    if (vm.count("out") != 0U) {  // deprecated spelling of --output FILE.txt, kept for the scripts that use it
        o.out = vm["out"].as<std::string>();
        run::check_output_path("--out", o.out);
    }
    if (vm.count("output") != 0U) {
        o.output = vm["output"].as<std::string>();
        const std::string format = run::output_format("--output", o.output, {".raw", ".bin", ".txt", ".csv"});
        o.output_text = format == ".txt" || format == ".csv";
    }
    return o;
}

/// Reads float64 values [first, first + count) of `path` into `out`; false with `error` set on failure.
bool read_values(const std::string& path, std::int64_t first, std::span<double> out, std::string& error) {
    return run::read_bytes(path,
                           static_cast<std::uintmax_t>(first) * sizeof(double),
                           std::span<char>(reinterpret_cast<char*>(out.data()), out.size() * sizeof(double)),
                           error);
}

/// The lower triangle of the matrix file as far as this rank's rows need it: a_ij (i ≥ j) of its own rows i and, for
/// the standard mapping (which also stores the upper part of its rows), a_ij of the rows i below its block's first
/// row for the columns j of that block. Throws UsageError on every rank naming the file if a read fails.
class LowerTriangleFile {
  public:
    LowerTriangleFile(Group& world, const std::string& path, const SymvLayout& layout) {
        std::string error;
        const std::vector<int> blocks = layout.blocks_of(world.rank());
        for (const int b : blocks) {
            for (std::int64_t i = layout.block_begin(b); i < layout.block_begin(b + 1) && error.empty(); ++i) {
                std::vector<double>& row = own_[i];
                row.resize(static_cast<std::size_t>(i + 1));
                read_values(path, i * layout.n(), row, error);
            }
        }
        if (layout.mapping() == SymvMapping::standard && !blocks.empty()) {
            lo_ = layout.block_begin(blocks.front());
            const std::int64_t hi = layout.block_begin(blocks.front() + 1);
            for (std::int64_t i = lo_; i < layout.n() && error.empty(); ++i) {
                std::vector<double>& part = below_[i];
                part.resize(static_cast<std::size_t>(std::min(i + 1, hi) - lo_));
                read_values(path, i * layout.n() + lo_, part, error);
            }
        }
        run::agree(world, error.empty(), "--matrix: " + error);
    }
    /// a_ij, i ≥ j, for the (i, j) the matrix constructor asks this rank for.
    [[nodiscard]] double operator()(std::int64_t i, std::int64_t j) const {
        const auto own = own_.find(i);
        return own != own_.end() ? own->second[static_cast<std::size_t>(j)]
                                 : below_.at(i)[static_cast<std::size_t>(j - lo_)];
    }

  private:
    std::map<std::int64_t, std::vector<double>> own_;
    std::map<std::int64_t, std::vector<double>> below_;
    std::int64_t lo_ = 0;
};

/// The largest |y − ŷ|_i / (4nε(|α||A||x| + |β||y0|)_i) against the plain loop over a(i, j) (i ≥ j): ≤ 1 is within
/// the bound.
double error_ratio(const Options& o,
                   const std::vector<double>& y,
                   const std::function<double(std::int64_t, std::int64_t)>& a,
                   std::span<const double> x,
                   std::span<const double> y0) {
    const auto n = static_cast<std::size_t>(o.n);
    double worst = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        double sum = 0.0;
        double abs = 0.0;
        for (std::size_t j = 0; j < n; ++j) {
            const auto [r, c] = i >= j ? std::pair{i, j} : std::pair{j, i};
            const double t = a(static_cast<std::int64_t>(r), static_cast<std::int64_t>(c)) * x[j];
            sum += t;
            abs += std::abs(t);
        }
        const double expected = o.alpha * sum + (o.beta == 0.0 ? 0.0 : o.beta * y0[i]);
        const double bound = 4.0 * static_cast<double>(n) * std::numeric_limits<double>::epsilon() *
                                 (std::abs(o.alpha) * abs + std::abs(o.beta * y0[i])) +
                             std::numeric_limits<double>::min();
        worst = std::max(worst, std::abs(y[i] - expected) / bound);
    }
    return worst;
}

/// The packed lower triangle of the matrix file (a_ij at i(i+1)/2 + j), for --check on rank 0.
std::vector<double> packed_lower(const Options& o) {
    std::vector<double> packed(static_cast<std::size_t>(o.n * (o.n + 1) / 2));
    std::string error;
    for (std::int64_t i = 0; i < o.n && error.empty(); ++i) {
        read_values(
            o.matrix,
            i * o.n,
            std::span(packed).subspan(static_cast<std::size_t>(i * (i + 1) / 2), static_cast<std::size_t>(i + 1)),
            error);
    }
    if (!error.empty()) {
        throw std::runtime_error("--check: " + error);
    }
    return packed;
}

void write_text(const std::string& path, const std::vector<double>& y) {
    std::string text;
    char buffer[32];
    for (const double v : y) {
        const int length = std::snprintf(buffer, sizeof buffer, "%.17g\n", v);
        text.append(buffer, static_cast<std::size_t>(length));
    }
    run::write_whole(path, text);
}

/// One number as printf prints it with `format` (one conversion, at most 63 characters).
template <class T>
std::string formatted(const char* format, T value) {
    char buffer[64];
    const int length = std::snprintf(buffer, sizeof buffer, format, value);
    return std::string(buffer, static_cast<std::size_t>(std::clamp(length, 0, static_cast<int>(sizeof buffer) - 1)));
}

class SymvRun final : public run::Run {
  public:
    SymvRun(Group& world, Options o)
        : world_(world),
          o_(std::move(o)),
          layout_(o_.n, world.size(), o_.mapping),
          x_full_(static_cast<std::size_t>(o_.n)),
          y0_full_(static_cast<std::size_t>(o_.n), 0.0) {
        if (from_files()) {
            std::string error;
            read_values(o_.vector, 0, x_full_, error);
            run::agree(world, error.empty(), "--vector: " + error);
            A_ = SymmetricMatrix<double>(world, o_.n, LowerTriangleFile(world, o_.matrix, layout_), o_.mapping);
        } else {
            for (std::int64_t i = 0; i < o_.n; ++i) {
                x_full_[static_cast<std::size_t>(i)] = o_.input.x(i);
                y0_full_[static_cast<std::size_t>(i)] = o_.input.y(i);
            }
            A_ = SymmetricMatrix<double>(world, o_.n, o_.input, o_.mapping);
        }
        x_ = distribute_vector<double>(layout_, world.rank(), x_full_);
        y0_ = distribute_vector<double>(layout_, world.rank(), y0_full_);
        y_ = y0_;
    }

    void execute() override {
        y_ = y0_;
        symv<double>(world_, o_.alpha, A_, A_.layout(), x_, o_.beta, y_, SymvOptions{o_.overlap});
    }

    [[nodiscard]] std::optional<cost::Expr> expr(const cost::Profile& profile) const override {
        // As the validation cases: the overlapped shifts move data only inside MPI calls (cost::ShiftProgress).
        return cost::symv(world_.size(), o_.n, o_.mapping, profile, o_.overlap, cost::ShiftProgress::in_calls);
    }

    /// y gathered to rank 0, its norm, --check, --out and --output there (a failure agreed on), and the check's
    /// verdict on every rank for the exit status.
    void write_outputs() override {
        const std::vector<double> full = gather_vector<double>(world_, A_.layout(), y_, 0);
        run::write_on_root(world_, [&] {
            double sum = 0.0;
            for (const double v : full) {
                sum += v * v;
            }
            norm_ = std::sqrt(sum);
            if (o_.check) {
                ratio_ = check(full);
            }
            if (!o_.out.empty()) {
                write_text(o_.out, full);
            }
            if (!o_.output.empty() && o_.output_text) {
                write_text(o_.output, full);
            } else if (!o_.output.empty()) {
                run::write_whole(
                    o_.output,
                    std::span<const char>(reinterpret_cast<const char*>(full.data()), full.size() * sizeof(double)));
            }
        });
        world_.bcast(ratio_, 0);
    }

    [[nodiscard]] nlohmann::json json() const override {
        return {{"algorithm", "symv"},
                {"P", world_.size()},
                {"n", o_.n},
                {"mapping", to_string(o_.mapping)},
                {"overlap", o_.overlap},
                {"local_entries", A_.local_entries()},
                {"norm", norm_},
                {"error_ratio", o_.check ? nlohmann::json(ratio_) : nlohmann::json(nullptr)}};
    }

    [[nodiscard]] std::vector<std::string> text_before() const override {
        std::vector<std::string> lines{"symv: P = " + std::to_string(world_.size()) + ", n = " + std::to_string(o_.n) +
                                           ", " + std::string(to_string(o_.mapping)) + " mapping, " +
                                           (o_.overlap ? "overlapped shifts" : "blocking shifts") + ", " +
                                           std::to_string(A_.local_entries()) + " entries on rank 0",
                                       "|y|_2:     " + formatted("%.17g", norm_)};
        if (o_.check) {
            lines.push_back("check:     max error / bound 4n*eps*(|alpha||A||x| + |beta||y|) = " +
                            formatted("%.3g", ratio_) + (ratio_ <= 1.0 ? " (ok)" : " (FAILED)"));
        }
        return lines;
    }

    [[nodiscard]] int exit_status() const override { return ratio_ > 1.0 ? 1 : 0; }

  private:
    [[nodiscard]] bool from_files() const { return !o_.matrix.empty(); }

    /// Rank 0: the largest error / bound of `full` against a plain loop over the whole matrix.
    [[nodiscard]] double check(const std::vector<double>& full) const {
        if (!from_files()) {
            return error_ratio(o_, full, o_.input, x_full_, y0_full_);
        }
        const std::vector<double> packed = packed_lower(o_);
        const auto a = [&](std::int64_t i, std::int64_t j) {
            return packed[static_cast<std::size_t>(i * (i + 1) / 2 + j)];
        };
        return error_ratio(o_, full, a, x_full_, y0_full_);
    }

    Group& world_;
    Options o_;
    SymvLayout layout_;
    std::vector<double> x_full_;   ///< x whole on every rank: generated, or the vector file (read by each rank)
    std::vector<double> y0_full_;  ///< the starting y whole (0 with input files)
    SymmetricMatrix<double> A_;
    std::vector<double> x_;
    std::vector<double> y0_;
    std::vector<double> y_;
    double norm_ = 0.0;
    double ratio_ = -1.0;  ///< the check's error / bound; negative when not checked
};

}  // namespace

run::RunCommand symv_run_command() {
    return {
        .name = "symv",
        .description = "symmetric matrix-vector product on a ring, reflection mapping (Grigg, Miguet & Robert, [3])",
        .options = add_options,
        .prepare = [](Group& world, const po::variables_map& vm) -> std::unique_ptr<run::Run> {
            return std::make_unique<SymvRun>(world, symv_options(world, vm));
        }};
}

}  // namespace llc::cards
