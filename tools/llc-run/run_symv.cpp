// llc-run symv: y = αAx + βy for a generated symmetric matrix on the ring (algorithms/symv).
//
//   mpirun -np P llc-run symv (--n N [--seed S] | --matrix A.raw --vector X.raw) [--mapping reflection|standard]
//                             [--no-overlap] [--alpha A] [--beta B] [--repeat K] [--check] [--output Y.raw] [--out
//                             Y.txt]
//                             [--profile F] [--json]
//
// The matrix and the vectors are generated from the seed, entry by entry (a_ij, x_i, y_i uniform in [−1, 1) from a
// hash of (seed, i, j)), so every rank builds only its own rows and the same input comes out at every P. Prints ‖y‖₂,
// the largest error against a plain loop over the full matrix on rank 0 (--check, O(n²) there), the measured median
// time of one product (the matrix built once, outside the timing, as a reused operator) and the CCM prediction.
// --matrix and --vector read raw little-endian float64 files instead: the matrix full, n × n row-major, of which only
// the lower triangle is read (each rank reads the rows it holds), x of n entries (n is the vector file's size / 8);
// y starts at 0 then. --output writes y as raw float64 on rank 0, --out as text (one value a line); both whole or not
// at all.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <llc/algorithms/symv.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

#include "run.hpp"

namespace llc::run {

namespace {

namespace po = boost::program_options;

/// A value in [−1, 1) from (seed, i, j): splitmix64 of their mix.
double generated(std::uint64_t seed, std::int64_t i, std::int64_t j) {
    std::uint64_t z = seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(i) * 0xbf58476d1ce4e5b9ULL +
                      static_cast<std::uint64_t>(j) * 0x94d049bb133111ebULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-52 - 1.0;
}

struct Options {
    std::int64_t n = 0;
    std::uint64_t seed = 1;
    SymvMapping mapping = SymvMapping::reflection;
    bool overlap = true;
    double alpha = 1.0;
    double beta = 0.0;
    int repeat = 5;
    bool check = false;
    bool json = false;
    std::string out;
    std::string output;
    std::string matrix;  ///< raw float64 n × n row-major (lower triangle read); empty: generated
    std::string vector;  ///< raw float64 x of n entries
    std::optional<cost::Profile> profile;
};

/// n from the input files: the vector's length, the matrix n × n float64. @throws UsageError on every rank naming the
/// file for a missing file or a size that does not fit.
std::int64_t input_order(Group& world, const std::string& matrix, const std::string& vector) {
    std::string error;
    std::int64_t n = 0;
    try {
        const std::uintmax_t x_bytes = file_size(vector);
        if (x_bytes == 0 || x_bytes % sizeof(double) != 0) {
            error = "--vector: input file '" + vector + "' has " + std::to_string(x_bytes) +
                    " bytes, not a positive number of float64 values";
        } else {
            n = static_cast<std::int64_t>(x_bytes / sizeof(double));
            const std::uintmax_t a_bytes = file_size(matrix);
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
    agree(world, error.empty(), error);
    return n;
}

/// Reads float64 values [first, first + count) of `path` into `out`; false with `error` set on failure.
bool read_values(const std::string& path, std::int64_t first, std::span<double> out, std::string& error) {
    return read_bytes(path,
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
        agree(world, error.empty(), "--matrix: " + error);
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

std::optional<Options> parse(Group& world, const std::vector<std::string>& args) {
    po::options_description desc("llc-run symv options");
    // clang-format off
    desc.add_options()
        ("help,h", "this help")
        ("n", po::value<std::int64_t>(), "matrix order of a generated matrix")
        ("matrix", po::value<std::string>(), "raw float64 n × n row-major matrix (lower triangle read), with --vector")
        ("vector", po::value<std::string>(), "raw float64 x of n entries, with --matrix (y starts at 0)")
        ("seed", po::value<std::uint64_t>()->default_value(1), "seed of the generated matrix and vectors")
        ("mapping", po::value<std::string>()->default_value("reflection"), "reflection (packed, article [3] §3) or standard (full rows, §2)")
        ("no-overlap", po::bool_switch(), "blocking shifts instead of split-phase ones")
        ("alpha", po::value<double>()->default_value(1.0), "α of y = αAx + βy")
        ("beta", po::value<double>()->default_value(0.0), "β of y = αAx + βy")
        ("repeat", po::value<int>()->default_value(5), "timed products; the median is reported")
        ("check", po::bool_switch(), "compare with a plain loop over the full matrix on rank 0 (O(n²) there)")
        ("out", po::value<std::string>(), "write y to this file (text, one value a line) on rank 0")
        ("output", po::value<std::string>(), "write y to this file (raw little-endian float64) on rank 0")
        ("profile", po::value<std::string>(), "machine profile (llc-probe): the predicted time")
        ("json", po::bool_switch(), "rank 0 prints one JSON object");
    // clang-format on
    const std::optional<po::variables_map> parsed = parse_options(world, args, desc, "symv");
    if (!parsed) {
        return std::nullopt;
    }
    const po::variables_map& vm = *parsed;
    Options o;
    if ((vm.count("matrix") != 0U) != (vm.count("vector") != 0U)) {
        throw UsageError(vm.count("matrix") != 0U ? "--vector: give x with --matrix"
                                                  : "--matrix: give A with --vector");
    }
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
    o.seed = vm["seed"].as<std::uint64_t>();
    const std::string mapping = vm["mapping"].as<std::string>();
    if (mapping != "reflection" && mapping != "standard") {
        throw UsageError("--mapping: '" + mapping + "' is neither reflection nor standard");
    }
    o.mapping = mapping == "reflection" ? SymvMapping::reflection : SymvMapping::standard;
    o.overlap = !vm["no-overlap"].as<bool>();
    o.alpha = vm["alpha"].as<double>();
    o.beta = vm["beta"].as<double>();
    o.repeat = vm["repeat"].as<int>();
    if (o.repeat < 1) {
        throw UsageError("--repeat: " + std::to_string(o.repeat) + " must be at least 1");
    }
    o.check = vm["check"].as<bool>();
    o.json = vm["json"].as<bool>();
    if (vm.count("out") != 0U) {
        o.out = vm["out"].as<std::string>();
        check_output_path("--out", o.out);
    }
    if (vm.count("output") != 0U) {
        o.output = vm["output"].as<std::string>();
        check_output_path("--output", o.output);
    }
    if (vm.count("profile") != 0U) {
        try {
            o.profile = cost::Profile::load(vm["profile"].as<std::string>());
        } catch (const std::exception& e) {
            throw UsageError(std::string("--profile: ") + e.what());
        }
    }
    return o;
}

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

void write_vector(const std::string& path, const std::vector<double>& y) {
    std::string text;
    char buffer[32];
    for (const double v : y) {
        const int length = std::snprintf(buffer, sizeof buffer, "%.17g\n", v);
        text.append(buffer, static_cast<std::size_t>(length));
    }
    write_whole(path, text);
}

int run_symv(Group& world, const std::vector<std::string>& args) {
    const std::optional<Options> o = parse(world, args);
    if (!o) {
        return 0;
    }
    const std::uint64_t seed = o->seed;
    const bool from_files = !o->matrix.empty();
    const SymvLayout layout(o->n, world.size(), o->mapping);
    // x whole on every rank: generated, or the vector file (n values, read by each rank).
    std::vector<double> x_full(static_cast<std::size_t>(o->n));
    std::vector<double> y0_full(static_cast<std::size_t>(o->n), 0.0);
    if (from_files) {
        std::string error;
        read_values(o->vector, 0, x_full, error);
        agree(world, error.empty(), "--vector: " + error);
    } else {
        for (std::int64_t i = 0; i < o->n; ++i) {
            x_full[static_cast<std::size_t>(i)] = generated(seed + 1, i, -1);
            y0_full[static_cast<std::size_t>(i)] = generated(seed + 2, i, -1);
        }
    }
    const SymmetricMatrix<double> A =
        from_files
            ? SymmetricMatrix<double>(world, o->n, LowerTriangleFile(world, o->matrix, layout), o->mapping)
            : SymmetricMatrix<double>(
                  world, o->n, [seed](std::int64_t i, std::int64_t j) { return generated(seed, i, j); }, o->mapping);
    const std::vector<double> x = distribute_vector<double>(layout, world.rank(), x_full);
    const std::vector<double> y0 = distribute_vector<double>(layout, world.rank(), y0_full);
    std::vector<double> y = y0;
    const SymvOptions options{o->overlap};
    const auto execute = [&] {
        y = y0;
        symv<double>(world, o->alpha, A, x, o->beta, y, options);
    };
    (void)tools::time_sample(world.native(), 1, execute);
    std::vector<double> samples;
    for (int k = 0; k < o->repeat; ++k) {
        samples.push_back(tools::time_sample(world.native(), 1, execute).seconds);
    }
    const double measured = tools::median(samples);
    std::optional<double> prediction;
    if (o->profile) {
        try {
            prediction = cost::predict(cost::symv(world.size(), o->n, o->mapping, *o->profile, o->overlap),
                                       cost::CCM(*o->profile));
        } catch (const llc::Error& e) {
            throw UsageError(std::string("--profile: ") + e.what());
        }
    }
    const std::vector<double> full = gather_vector<double>(world, A.layout(), y, 0);
    if (world.rank() != 0) {
        return 0;
    }
    double norm = 0.0;
    for (const double v : full) {
        norm += v * v;
    }
    norm = std::sqrt(norm);
    // Negative when not checked (a std::optional here trips GCC 12's -Wmaybe-uninitialized).
    double ratio = -1.0;
    if (o->check && from_files) {
        const std::vector<double> packed = packed_lower(*o);
        const auto a = [&](std::int64_t i, std::int64_t j) {
            return packed[static_cast<std::size_t>(i * (i + 1) / 2 + j)];
        };
        ratio = error_ratio(*o, full, a, x_full, y0_full);
    } else if (o->check) {
        ratio = error_ratio(
            *o, full, [seed](std::int64_t i, std::int64_t j) { return generated(seed, i, j); }, x_full, y0_full);
    }
    if (!o->out.empty()) {
        write_vector(o->out, full);
    }
    if (!o->output.empty()) {
        write_whole(o->output,
                    std::span<const char>(reinterpret_cast<const char*>(full.data()), full.size() * sizeof(double)));
    }
    const char* mapping = o->mapping == SymvMapping::reflection ? "reflection" : "standard";
    if (o->json) {
        const nlohmann::json j{{"algorithm", "symv"},
                               {"P", world.size()},
                               {"n", o->n},
                               {"mapping", mapping},
                               {"overlap", o->overlap},
                               {"local_entries", A.local_entries()},
                               {"norm", norm},
                               {"error_ratio", o->check ? nlohmann::json(ratio) : nlohmann::json(nullptr)},
                               {"repeat", o->repeat},
                               {"measured_s", measured},
                               {"samples_s", samples},
                               {"predicted_s", prediction ? nlohmann::json(*prediction) : nlohmann::json(nullptr)}};
        std::printf("%s\n", j.dump().c_str());
    } else {
        std::printf("symv: P = %d, n = %lld, %s mapping, %s, %lld entries on rank 0\n",
                    world.size(),
                    static_cast<long long>(o->n),
                    mapping,
                    o->overlap ? "overlapped shifts" : "blocking shifts",
                    static_cast<long long>(A.local_entries()));
        std::printf("|y|_2:     %.17g\n", norm);
        if (o->check) {
            std::printf("check:     max error / bound 4n*eps*(|alpha||A||x| + |beta||y|) = %.3g (%s)\n",
                        ratio,
                        ratio <= 1.0 ? "ok" : "FAILED");
        }
        std::printf("measured:  %s (median of %d)\n", cost::format_seconds(measured).c_str(), o->repeat);
        if (prediction) {
            std::printf("predicted: %s (CCM)\n", cost::format_seconds(*prediction).c_str());
        } else {
            std::printf("predicted: - (no --profile)\n");
        }
    }
    return ratio > 1.0 ? 1 : 0;
}

}  // namespace

RunCommand symv_command() {
    return legacy_command("symv",
                          "symmetric matrix-vector product on a ring, reflection mapping (Grigg, Miguet & Robert, [3])",
                          run_symv);
}

}  // namespace llc::run
