#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include <llc/cost/piecewise.hpp>
#include <llc/error.hpp>

namespace llc::cost {

namespace {

// Upper end of the range of a function defined "over all sizes" (constant, linear): finite, so JSON can hold it.
constexpr double all_sizes = 1.0e300;

using llc::detail::format_value;  // the shortest text that reads back as the same double

void check_samples(const char* function, std::span<const Sample> samples) {
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const Sample& s = samples[i];
        if (!std::isfinite(s.bytes) || s.bytes < 0.0) {
            throw_argument_error(
                function, "samples[" + std::to_string(i) + "].bytes", format_value(s.bytes), "must be finite and >= 0");
        }
        if (!std::isfinite(s.seconds) || s.seconds < 0.0) {
            throw_argument_error(function,
                                 "samples[" + std::to_string(i) + "].seconds",
                                 format_value(s.seconds),
                                 "must be finite and >= 0");
        }
    }
}

// Weighted least-squares statistics of a run of samples, accumulated stably (centred sums, West's algorithm).
struct Stats {
    double W = 0.0;    // Σ w
    double mx = 0.0;   // weighted mean of x
    double my = 0.0;   // weighted mean of y
    double Cxx = 0.0;  // Σ w (x − mx)²
    double Cxy = 0.0;  // Σ w (x − mx)(y − my)
    double Cyy = 0.0;  // Σ w (y − my)²
    void add(double x, double y, double w) {
        W += w;
        const double dx = x - mx;
        const double dy = y - my;
        mx += (w / W) * dx;
        my += (w / W) * dy;
        Cxx += w * dx * (x - mx);
        Cxy += w * dx * (y - my);
        Cyy += w * dy * (y - my);
    }
};

struct LineFit {
    double intercept = 0.0;
    double slope = 0.0;
    double sse = 0.0;  // weighted: Σ w (y − f(x))²
};

// The best line over samples with x in [x_lo, x_hi] that is non-negative at both ends (hence on the whole piece).
LineFit fit_line(const Stats& s, double x_lo, double x_hi) {
    const double syy = std::max(0.0, s.Cyy + s.W * s.my * s.my);  // Σ w y²
    if (s.Cxx <= 1e-300 * std::max(1.0, s.W) || x_hi <= x_lo) {
        return {s.my, 0.0, std::max(0.0, s.Cyy)};  // one distinct size: the (non-negative) weighted mean
    }
    LineFit best;
    best.slope = s.Cxy / s.Cxx;
    best.intercept = s.my - best.slope * s.mx;
    best.sse = std::max(0.0, s.Cyy - best.slope * s.Cxy);
    const auto non_negative = [&](double a, double b) {
        const double tol = 1e-12 * std::max(1.0, std::abs(s.my));
        return a + b * x_lo >= -tol && a + b * x_hi >= -tol;
    };
    if (non_negative(best.intercept, best.slope)) {
        return best;
    }
    // The optimum lies on a constraint: the line is zero at one end of the piece.
    LineFit zero{0.0, 0.0, syy};
    best = zero;
    for (const double xc : {x_lo, x_hi}) {
        const double sxx = s.Cxx + s.W * (s.mx - xc) * (s.mx - xc);  // Σ w (x − xc)²
        const double sxy = s.Cxy + s.W * s.my * (s.mx - xc);         // Σ w y (x − xc)
        if (sxx <= 0.0) {
            continue;
        }
        const double slope = sxy / sxx;
        const LineFit candidate{-slope * xc, slope, std::max(0.0, syy - sxy * sxy / sxx)};
        if (non_negative(candidate.intercept, candidate.slope) && candidate.sse < best.sse) {
            best = candidate;
        }
    }
    return best;
}

double median(std::vector<double> values) {
    if (values.empty()) {
        return 0.0;
    }
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
    double m = values[mid];
    if (values.size() % 2 == 0) {
        m = (m + *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid))) / 2.0;
    }
    return m;
}

}  // namespace

// ---- construction -----------------------------------------------------------------------------------------------

Piecewise::Piecewise(std::vector<Segment> segments) : segments_(std::move(segments)) {
    for (std::size_t i = 0; i < segments_.size(); ++i) {
        const Segment& s = segments_[i];
        const std::string name = "segments[" + std::to_string(i) + "]";
        if (!std::isfinite(s.from) || !std::isfinite(s.to) || !std::isfinite(s.intercept) || !std::isfinite(s.slope)) {
            throw_argument_error("llc::cost::Piecewise", name, "non-finite", "coefficients must be finite");
        }
        if (s.from < 0.0 || s.to < s.from) {
            throw_argument_error("llc::cost::Piecewise",
                                 name + ".from/to",
                                 format_value(s.from) + ".." + format_value(s.to),
                                 "need 0 <= from <= to");
        }
        if (i > 0 && s.from != segments_[i - 1].to) {
            throw_argument_error("llc::cost::Piecewise",
                                 name + ".from",
                                 format_value(s.from),
                                 "must equal the previous piece's 'to' (" + format_value(segments_[i - 1].to) + ")");
        }
        if (i > 0 && s.to <= s.from) {
            throw_argument_error(
                "llc::cost::Piecewise", name + ".to", format_value(s.to), "pieces after the first must not be empty");
        }
    }
}

Piecewise Piecewise::constant(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0.0) {
        throw_argument_error(
            "llc::cost::Piecewise::constant", "seconds", format_value(seconds), "must be finite and >= 0");
    }
    return Piecewise({Segment{0.0, all_sizes, seconds, 0.0}});
}

Piecewise Piecewise::linear(double intercept, double slope) {
    if (!std::isfinite(intercept) || !std::isfinite(slope)) {
        throw_argument_error("llc::cost::Piecewise::linear",
                             "intercept/slope",
                             format_value(intercept) + "/" + format_value(slope),
                             "must be finite");
    }
    return Piecewise({Segment{0.0, all_sizes, intercept, slope}});
}

Piecewise Piecewise::through(std::span<const Sample> points) {
    constexpr const char* function = "llc::cost::Piecewise::through";
    if (points.empty()) {
        throw_argument_error(function, "points", "{}", "need at least one point");
    }
    check_samples(function, points);
    for (std::size_t i = 1; i < points.size(); ++i) {
        if (!(points[i].bytes > points[i - 1].bytes)) {
            throw_argument_error(function,
                                 "points[" + std::to_string(i) + "].bytes",
                                 format_value(points[i].bytes),
                                 "sizes must be strictly ascending");
        }
    }
    std::vector<Segment> segments;
    if (points.size() == 1) {
        segments.push_back({points[0].bytes, points[0].bytes, points[0].seconds, 0.0});
    }
    for (std::size_t i = 1; i < points.size(); ++i) {
        const Sample& a = points[i - 1];
        const Sample& b = points[i];
        const double slope = (b.seconds - a.seconds) / (b.bytes - a.bytes);
        segments.push_back({a.bytes, b.bytes, a.seconds - slope * a.bytes, slope});
    }
    return Piecewise(std::move(segments));
}

Piecewise Piecewise::fit(std::span<const Sample> input, const FitOptions& options) {
    constexpr const char* function = "llc::cost::Piecewise::fit";
    if (input.empty()) {
        throw_argument_error(function, "samples", "{}", "need at least one sample");
    }
    if (options.max_segments < 1) {
        throw_argument_error(function, "options.max_segments", std::to_string(options.max_segments), "must be >= 1");
    }
    if (options.min_points_per_segment < 1) {
        throw_argument_error(
            function, "options.min_points_per_segment", std::to_string(options.min_points_per_segment), "must be >= 1");
    }
    if (!std::isfinite(options.segment_penalty)) {
        throw_argument_error(
            function, "options.segment_penalty", format_value(options.segment_penalty), "must be finite");
    }
    check_samples(function, input);

    std::vector<Sample> samples(input.begin(), input.end());
    std::stable_sort(
        samples.begin(), samples.end(), [](const Sample& a, const Sample& b) { return a.bytes < b.bytes; });
    const std::size_t n = samples.size();

    // Relative residuals: weight 1/y², with a floor for (near) zero times.
    std::vector<double> positive;
    for (const Sample& s : samples) {
        if (s.seconds > 0.0) {
            positive.push_back(s.seconds);
        }
    }
    const double floor = positive.empty() ? 1.0 : 1e-3 * median(positive);
    std::vector<double> weight(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double y = std::max(samples[i].seconds, floor);
        weight[i] = 1.0 / (y * y);
    }

    // Groups of equal sizes: breakpoints fall between groups only.
    std::vector<std::size_t> group_begin;
    for (std::size_t i = 0; i < n; ++i) {
        if (i == 0 || samples[i].bytes != samples[i - 1].bytes) {
            group_begin.push_back(i);
        }
    }
    const std::size_t m = group_begin.size();
    group_begin.push_back(n);
    const auto gx = [&](std::size_t g) { return samples[group_begin[g]].bytes; };

    const std::size_t min_groups = static_cast<std::size_t>(options.min_points_per_segment);
    std::size_t max_k =
        std::min(static_cast<std::size_t>(options.max_segments), std::max<std::size_t>(1, m / min_groups));
    if (m < min_groups) {
        max_k = 1;
    }

    // cost[a][b]: best non-negative line over groups a..b.
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<std::vector<LineFit>> line(m, std::vector<LineFit>(m));
    for (std::size_t a = 0; a < m; ++a) {
        Stats stats;
        for (std::size_t b = a; b < m; ++b) {
            for (std::size_t i = group_begin[b]; i < group_begin[b + 1]; ++i) {
                stats.add(samples[i].bytes, samples[i].seconds, weight[i]);
            }
            line[a][b] = fit_line(stats, gx(a), gx(b));
        }
    }
    const auto cost = [&](std::size_t a, std::size_t b) {
        if (max_k > 1 && b + 1 - a < min_groups) {
            return inf;
        }
        return line[a][b].sse;
    };

    // best[k][j]: least SSE of groups 0..j in k pieces; from[k][j]: first group of the last piece.
    std::vector<std::vector<double>> best(max_k + 1, std::vector<double>(m, inf));
    std::vector<std::vector<std::size_t>> from(max_k + 1, std::vector<std::size_t>(m, 0));
    for (std::size_t j = 0; j < m; ++j) {
        best[1][j] = cost(0, j);
    }
    for (std::size_t k = 2; k <= max_k; ++k) {
        for (std::size_t j = 0; j < m; ++j) {
            for (std::size_t i = 1; i <= j; ++i) {
                if (best[k - 1][i - 1] == inf) {
                    continue;
                }
                const double c = best[k - 1][i - 1] + cost(i, j);
                if (c < best[k][j]) {
                    best[k][j] = c;
                    from[k][j] = i;
                }
            }
        }
    }

    // Choose the number of pieces.
    std::size_t chosen = 1;
    double chosen_score = inf;
    const double dn = static_cast<double>(n);
    for (std::size_t k = 1; k <= max_k; ++k) {
        const double sse = best[k][m - 1];
        if (sse == inf) {
            continue;
        }
        double score = 0.0;
        if (options.segment_penalty >= 0.0) {
            score = sse + options.segment_penalty * static_cast<double>(k);
        } else {
            const double floor_sse = dn * 1e-12;  // relative residuals of 1e-6 are exact for our purpose
            score = dn * std::log(std::max(sse, floor_sse) / dn) + (3.0 * static_cast<double>(k) - 1.0) * std::log(dn);
        }
        if (chosen_score == inf || score < chosen_score - 1e-12 * std::abs(chosen_score)) {
            chosen_score = score;
            chosen = k;
        }
    }

    // Recover the pieces.
    std::vector<std::pair<std::size_t, std::size_t>> pieces;  // group ranges [a, b]
    std::size_t j = m - 1;
    for (std::size_t k = chosen; k >= 1; --k) {
        const std::size_t a = k == 1 ? 0 : from[k][j];
        pieces.emplace_back(a, j);
        if (k == 1) {
            break;
        }
        j = a - 1;
    }
    std::reverse(pieces.begin(), pieces.end());

    std::vector<Segment> segments;
    for (std::size_t p = 0; p < pieces.size(); ++p) {
        const auto [a, b] = pieces[p];
        const LineFit& f = line[a][b];
        Segment s{gx(a), gx(b), f.intercept, f.slope};
        if (p + 1 < pieces.size()) {
            // The breakpoint: between the last size of this piece and the first of the next (geometric mean, as
            // sizes are usually log-spaced).
            const double lo = gx(b);
            const double hi = gx(pieces[p + 1].first);
            s.to = lo > 0.0 ? std::sqrt(lo * hi) : (lo + hi) / 2.0;
        }
        if (p > 0) {
            s.from = segments.back().to;
        }
        segments.push_back(s);
    }
    Piecewise result(std::move(segments));
    result.quality_ = result.quality_on(samples);
    return result;
}

// ---- evaluation -------------------------------------------------------------------------------------------------

double Piecewise::operator()(double bytes) const noexcept {
    if (segments_.empty()) {
        return 0.0;
    }
    const auto it = std::upper_bound(
        segments_.begin(), segments_.end(), bytes, [](double x, const Segment& s) { return x < s.from; });
    const Segment& s = it == segments_.begin() ? segments_.front() : *(it - 1);
    double x = bytes;
    if (&s == &segments_.back() && bytes > s.to && s.slope < 0.0) {
        x = s.to;  // never let a falling last piece decrease further outside the data
    }
    return std::max(0.0, s.at(x));
}

bool Piecewise::extrapolates(double bytes) const noexcept {
    if (segments_.empty()) {
        return false;
    }
    return bytes < min_bytes() || bytes > max_bytes();
}

std::vector<double> Piecewise::breakpoints() const {
    std::vector<double> out;
    for (std::size_t i = 1; i < segments_.size(); ++i) {
        out.push_back(segments_[i].from);
    }
    return out;
}

double Piecewise::min_bytes() const noexcept {
    return segments_.empty() ? 0.0 : segments_.front().from;
}
double Piecewise::max_bytes() const noexcept {
    return segments_.empty() ? all_sizes : segments_.back().to;
}

FitQuality Piecewise::quality_on(std::span<const Sample> samples) const {
    std::vector<double> residuals = relative_residuals(*this, samples);
    FitQuality q;
    q.samples = samples.size();
    if (!residuals.empty()) {
        q.max_relative = *std::max_element(residuals.begin(), residuals.end());
        q.median_relative = median(std::move(residuals));
    }
    return q;
}

std::vector<double> relative_residuals(const Piecewise& f, std::span<const Sample> samples) {
    std::vector<double> out;
    out.reserve(samples.size());
    for (const Sample& s : samples) {
        if (s.seconds > 0.0) {
            out.push_back(std::abs(f(s.bytes) - s.seconds) / s.seconds);
        }
    }
    return out;
}

}  // namespace llc::cost
