#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include <llc/cost/operation_names.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>
#include <llc/version.hpp>

namespace llc::cost {

namespace {

using llc::detail::format_value;  // the shortest text that reads back as the same double

void check_P(const char* function, int P) {
    if (P < 1) {
        throw_argument_error(function, "P", std::to_string(P), "must be >= 1");
    }
}

void check_bytes(const char* function, double bytes) {
    if (!std::isfinite(bytes) || bytes < 0.0) {
        throw_argument_error(function, "bytes", format_value(bytes), "must be finite and >= 0");
    }
}

template <class Map>
std::vector<int> keys(const Map& map) {
    std::vector<int> out;
    for (const auto& [P, value] : map) {
        out.push_back(P);
    }
    return out;
}

/// The price of a collective at `bytes` above the largest size its fit was measured at (a quick profile measures the
/// collectives up to 4 MiB): its price there, its part that grows with the bytes (above its price at its smallest
/// size) grown as swap's price grows from there to `bytes`. The fit's last line, drawn through sizes measured in the
/// caches, priced every collective at 64 MiB 24–71 % low (the 2026-11-26 large run: a 64 MiB reduce at p = 1 took
/// 10.0 ms, priced 5.0), where the copy runs at memory speed; swap, the node's plain copy between buffers, is
/// calibrated to 256 MiB, through that change. A price that does not grow with the bytes (a broadcast on one
/// processor) stays flat. Within the data, or without a swap measured beyond the collective's largest size, the fit as
/// it is. `swap` is the one-processor swap's fit where the profile has it (Profile::collective says why).
double beyond_data(const Piecewise& fit, const Piecewise* swap, double bytes) {
    const double largest = fit.max_bytes();
    if (swap == nullptr || !(bytes > largest) || !(swap->max_bytes() > largest)) {
        return fit(bytes);
    }
    const double at_largest = (*swap)(largest);
    if (!(at_largest > 0.0)) {
        return fit(bytes);
    }
    const double there = fit(largest);
    const double grows = std::max(0.0, there - fit(fit.min_bytes()));
    return there + grows * ((*swap)(bytes) / at_largest - 1.0);
}

}  // namespace

std::string how_to_make_profile() {
    return "make one with: mpirun -np 2 build/bin/llc-probe --out FILE";
}

std::string missing_kernel_message(std::string_view function, std::string_view key) {
    return std::string(function) + ": the profile has no kernel constant '" + std::string(key) +
           "'; llc-probe of llc " + llc::version + " writes it: re-calibrate (" + how_to_make_profile() + ")";
}

std::string default_profile_path() {
    if (const char* env = std::getenv("LLC_PROFILE"); env != nullptr && *env != '\0') {
        return env;
    }
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') {
        std::strcpy(host, "unknown-host");
    }
    std::filesystem::path dir;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
        dir = xdg;
    } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
        dir = std::filesystem::path(home) / ".cache";
    } else {
        dir = std::filesystem::temp_directory_path();
    }
    return (dir / "llc" / (std::string("profile-") + host + ".json")).string();
}

Growth growth_of_collective(std::string_view f) {
    for (const char* linear : {names::op::gather,
                               names::op::scatter,
                               names::op::allgather,
                               names::op::alltoall,
                               names::op::gatherv,
                               names::op::scatterv,
                               names::op::allgatherv,
                               names::op::alltoallv}) {
        if (f == linear) {
            return Growth::linear;
        }
    }
    return Growth::log;
}

namespace {

/// Beyond the largest measured P: a + b · g(P) by least squares over the measured P ≥ 2 (at least two of them).
double fit_beyond(std::span<const int> measured, std::span<const double> values, int P, Growth growth) {
    const auto g = [growth](int q) {
        return growth == Growth::linear ? static_cast<double>(q - 1) : std::log2(static_cast<double>(q));
    };
    double n = 0.0;
    double sx = 0.0;
    double sy = 0.0;
    for (std::size_t i = 0; i < measured.size(); ++i) {
        if (measured[i] >= 2) {
            n += 1.0;
            sx += g(measured[i]);
            sy += values[i];
        }
    }
    const double mx = sx / n;
    const double my = sy / n;
    double sxx = 0.0;
    double sxy = 0.0;
    for (std::size_t i = 0; i < measured.size(); ++i) {
        if (measured[i] >= 2) {
            sxx += (g(measured[i]) - mx) * (g(measured[i]) - mx);
            sxy += (g(measured[i]) - mx) * (values[i] - my);
        }
    }
    const double slope = std::max(0.0, sxy / sxx);  // a cost that fell with P in the data does not fall on to 0
    return std::max(0.0, my + slope * (g(P) - mx));
}

}  // namespace

Lookup interpolate_in_p(std::span<const int> measured, std::span<const double> values, int P, Growth growth) {
    constexpr const char* function = "llc::cost::interpolate_in_p";
    if (measured.empty() || measured.size() != values.size()) {
        throw_argument_error(function,
                             "measured_P",
                             std::to_string(measured.size()) + " entries",
                             "need >= 1 entry and as many values (" + std::to_string(values.size()) + ")");
    }
    check_P(function, P);
    for (std::size_t i = 0; i < measured.size(); ++i) {
        if (measured[i] < 1 || (i > 0 && measured[i] <= measured[i - 1])) {
            throw_argument_error(function,
                                 "measured_P[" + std::to_string(i) + "]",
                                 std::to_string(measured[i]),
                                 "must be >= 1 and strictly ascending");
        }
        if (measured[i] == P) {
            return {values[i], false};
        }
    }
    const double x = std::log(static_cast<double>(P));
    if (measured.size() == 1) {
        const int Pm = measured[0];
        if (Pm == 1) {
            return {values[0], true};
        }
        return {std::max(0.0, values[0] * x / std::log(static_cast<double>(Pm))), true};
    }
    if (P > measured.back() && std::count_if(measured.begin(), measured.end(), [](int q) { return q >= 2; }) >= 2) {
        return {fit_beyond(measured, values, P, growth), true};
    }
    // The bracketing pair, or the two nearest measured P at the end P lies beyond.
    std::size_t hi = static_cast<std::size_t>(std::upper_bound(measured.begin(), measured.end(), P) - measured.begin());
    const bool outside = hi == 0 || hi == measured.size();
    hi = std::clamp<std::size_t>(hi, 1, measured.size() - 1);
    const std::size_t lo = hi - 1;
    const double x0 = std::log(static_cast<double>(measured[lo]));
    const double x1 = std::log(static_cast<double>(measured[hi]));
    const double value = values[lo] + (values[hi] - values[lo]) * (x - x0) / (x1 - x0);
    return {std::max(0.0, value), outside};
}

// ---- collectives ------------------------------------------------------------------------------------------------

void Profile::set_collective(std::string_view f, int P, Piecewise t) {
    if (f.empty()) {
        throw_argument_error("llc::cost::Profile::set_collective", "f", "\"\"", "must name a collective");
    }
    check_P("llc::cost::Profile::set_collective", P);
    collectives_[canonical_collective(f)][P] = std::move(t);
}

bool Profile::has_collective(std::string_view f) const {
    return collectives_.find(canonical_collective(f)) != collectives_.end();
}

std::vector<std::string> Profile::collectives() const {
    std::vector<std::string> out;
    for (const auto& [name, fits] : collectives_) {
        out.push_back(name);
    }
    return out;
}

std::vector<int> Profile::measured_sizes(std::string_view f) const {
    const auto it = collectives_.find(canonical_collective(f));
    return it == collectives_.end() ? std::vector<int>{} : keys(it->second);
}

const Piecewise& Profile::collective_fit(std::string_view f, int P) const {
    const auto it = collectives_.find(canonical_collective(f));
    if (it != collectives_.end()) {
        if (const auto fit = it->second.find(P); fit != it->second.end()) {
            return fit->second;
        }
    }
    throw Error("llc::cost::Profile::collective_fit: the profile has no T_f for '" + canonical_collective(f) +
                "' measured at P = " + std::to_string(P) + "; " + how_to_make_profile());
}

Lookup Profile::collective(std::string_view f, int P, double bytes) const {
    constexpr const char* function = "llc::cost::Profile::collective";
    check_P(function, P);
    check_bytes(function, bytes);
    const std::string name = canonical_collective(f);
    const auto it = collectives_.find(name);
    if (name.ends_with(far_suffix) && name != names::op::swap_far && it == collectives_.end()) {
        // A far variant not measured itself (swap.cold.far, swap.cold.heap.far): its near variant's price, scaled as
        // swap.far's to swap's at this P and h (far_suffix).
        const Lookup near = collective(std::string_view(name).substr(0, name.size() - far_suffix.size()), P, bytes);
        const Lookup far = collective(names::op::swap_far, P, bytes);
        const Lookup one = collective(names::op::swap, P, bytes);
        return {one.seconds > 0.0 ? near.seconds * far.seconds / one.seconds : near.seconds,
                near.extrapolated || far.extrapolated || one.extrapolated};
    }
    if (it == collectives_.end() || it->second.empty()) {
        std::string known;
        for (const auto& [k, v] : collectives_) {
            if (!known.empty()) {
                known += ", ";
            }
            known += k;
        }
        throw Error(std::string(function) + ": the profile has no T_f for collective '" + name +
                    "' (it has: " + (known.empty() ? "none" : known) + "); " + how_to_make_profile());
    }
    std::vector<int> Ps;
    std::vector<double> values;
    bool outside_h = false;
    // Swap's own fits price swap; the other collectives above their data grow as swap does (beyond_data): as the
    // one-processor swap does, a single copy through the node's caches, where the profile has it, else as the swap
    // at the same P. At P > 1 the swap is P processors copying at once, sharing the last-level cache and the memory
    // bus, and its price per byte turns up at smaller sizes and more steeply than a collective's: on the 2026-11-26
    // recorded data (p = 2) the growth of the p = 2 swap priced the collectives 13–113 % high at 11.8 and 64 MiB
    // (a 64 MiB scatter +31 %, bcast.bst +67 %), that of the one-processor swap −10…+71 % (scatter +3 %,
    // bcast.bst +32 %; what is left at 11.8 MiB is the fit's own level at 4 MiB, high at p = 2).
    const auto swaps = name == names::op::swap ? collectives_.end() : collectives_.find(names::op::swap);
    const Piecewise* one_copy = nullptr;
    if (swaps != collectives_.end()) {
        if (const auto s = swaps->second.find(1); s != swaps->second.end()) {
            one_copy = &s->second;
        }
    }
    for (const auto& [Pm, fit] : it->second) {
        Ps.push_back(Pm);
        const Piecewise* swap = one_copy;
        if (swap == nullptr && swaps != collectives_.end()) {
            if (const auto s = swaps->second.find(Pm); s != swaps->second.end()) {
                swap = &s->second;
            }
        }
        values.push_back(beyond_data(fit, swap, bytes));
    }
    Lookup result = interpolate_in_p(Ps, values, P, growth_of_collective(name));
    // Flag h outside the sizes of the fits the value rests on: the exact P, else the two used for the interpolation.
    std::vector<const Piecewise*> fits;
    for (const auto& [Pm, fit] : it->second) {
        fits.push_back(&fit);
    }
    const auto exact = std::find(Ps.begin(), Ps.end(), P);
    if (exact != Ps.end()) {
        outside_h = fits[static_cast<std::size_t>(exact - Ps.begin())]->extrapolates(bytes);
    } else if (fits.size() == 1) {
        outside_h = fits[0]->extrapolates(bytes);
    } else {
        std::size_t hi = static_cast<std::size_t>(std::upper_bound(Ps.begin(), Ps.end(), P) - Ps.begin());
        hi = std::clamp<std::size_t>(hi, 1, Ps.size() - 1);
        outside_h = fits[hi - 1]->extrapolates(bytes) || fits[hi]->extrapolates(bytes);
    }
    result.extrapolated = result.extrapolated || outside_h;
    return result;
}

// ---- divisions --------------------------------------------------------------------------------------------------

void Profile::set_division(int P, DivisionCost cost) {
    constexpr const char* function = "llc::cost::Profile::set_division";
    check_P(function, P);
    if (!std::isfinite(cost.split) || cost.split < 0.0 || !std::isfinite(cost.rejoin) || cost.rejoin < 0.0) {
        throw_argument_error(function,
                             "cost.split/rejoin",
                             format_value(cost.split) + "/" + format_value(cost.rejoin),
                             "must be finite and >= 0");
    }
    division_[P] = std::move(cost);
}

std::vector<int> Profile::division_sizes() const {
    return keys(division_);
}

const DivisionCost& Profile::division_fit(int P) const {
    if (const auto it = division_.find(P); it != division_.end()) {
        return it->second;
    }
    throw Error("llc::cost::Profile::division_fit: the profile has no division cost measured at P = " +
                std::to_string(P) + "; " + how_to_make_profile());
}

DivisionLookup Profile::division(int P, double bytes) const {
    constexpr const char* function = "llc::cost::Profile::division";
    check_P(function, P);
    check_bytes(function, bytes);
    if (division_.empty()) {
        throw Error(std::string(function) + ": the profile has no division cost (field 'division'); " +
                    how_to_make_profile());
    }
    std::vector<int> Ps;
    std::vector<double> split;
    std::vector<double> exchange;
    std::vector<double> rejoin;
    bool outside_h = false;
    for (const auto& [Pm, cost] : division_) {
        Ps.push_back(Pm);
        split.push_back(cost.split);
        exchange.push_back(cost.exchange(bytes));
        rejoin.push_back(cost.rejoin);
        outside_h = outside_h || cost.exchange.extrapolates(bytes);
    }
    const Lookup s = interpolate_in_p(Ps, split, P);
    const Lookup e = interpolate_in_p(Ps, exchange, P);
    const Lookup r = interpolate_in_p(Ps, rejoin, P);
    if (const auto it = division_.find(P); it != division_.end()) {
        outside_h = it->second.exchange.extrapolates(bytes);
    }
    return {s.seconds, e.seconds, r.seconds, s.extrapolated || e.extrapolated || r.extrapolated || outside_h};
}

// ---- point-to-point ---------------------------------------------------------------------------------------------

void Profile::set_point_to_point(Path path, Layout layout, Piecewise t) {
    p2p_[p2p_index(path, layout)] = std::move(t);
}

bool Profile::has_point_to_point() const noexcept {
    return std::all_of(p2p_.begin(), p2p_.end(), [](const auto& f) { return f.has_value(); });
}

const Piecewise& Profile::point_to_point(Path path, Layout layout) const {
    const auto& f = p2p_[p2p_index(path, layout)];
    if (!f) {
        throw Error("llc::cost::Profile::point_to_point: the profile has no P-3PC time for path '" +
                    std::string(to_string(path)) + "', layout '" + std::string(to_string(layout)) +
                    "' (field 'point_to_point'); " + how_to_make_profile());
    }
    return *f;
}

// ---- model parameters -------------------------------------------------------------------------------------------

void Profile::set_loggp(const LogGPParams& p) {
    for (const double x : {p.L, p.o, p.g, p.G}) {
        if (!std::isfinite(x) || x < 0.0) {
            throw_argument_error(
                "llc::cost::Profile::set_loggp", "params", format_value(x), "L, o, g, G must be finite, >= 0");
        }
    }
    loggp_ = p;
}

void Profile::set_bsp(int P, const BSPParams& p) {
    check_P("llc::cost::Profile::set_bsp", P);
    if (!std::isfinite(p.g) || p.g < 0.0 || !std::isfinite(p.l) || p.l < 0.0) {
        throw_argument_error("llc::cost::Profile::set_bsp",
                             "params",
                             format_value(p.g) + "/" + format_value(p.l),
                             "g and l must be finite, >= 0");
    }
    bsp_[P] = p;
}

BSPLookup Profile::bsp(int P) const {
    if (bsp_.empty()) {
        throw Error("llc::cost::Profile::bsp: the profile has no BSP parameters (field 'bsp'); " +
                    how_to_make_profile());
    }
    return interpolate_bsp(bsp_, P);
}

BSPLookup interpolate_bsp(const std::map<int, BSPParams>& table, int P) {
    std::vector<int> Ps;
    std::vector<double> g;
    std::vector<double> l;
    for (const auto& [Pm, params] : table) {
        Ps.push_back(Pm);
        g.push_back(params.g);
        l.push_back(params.l);
    }
    const Lookup gl = interpolate_in_p(Ps, g, P);
    const Lookup ll = interpolate_in_p(Ps, l, P);
    return {{gl.seconds, ll.seconds}, gl.extrapolated || ll.extrapolated};
}

void Profile::set_hockney(const HockneyParams& p) {
    if (!std::isfinite(p.alpha) || p.alpha < 0.0 || !std::isfinite(p.beta) || p.beta < 0.0) {
        throw_argument_error("llc::cost::Profile::set_hockney",
                             "params",
                             format_value(p.alpha) + "/" + format_value(p.beta),
                             "alpha and beta must be finite, >= 0");
    }
    hockney_ = p;
}

void Profile::set_c3(const C3Params& p) {
    if (!std::isfinite(p.setup) || p.setup < 0.0 || !std::isfinite(p.packet_time) || p.packet_time <= 0.0 ||
        !std::isfinite(p.packet_bytes) || p.packet_bytes <= 0.0) {
        throw_argument_error(
            "llc::cost::Profile::set_c3",
            "params",
            format_value(p.setup) + "/" + format_value(p.packet_time) + "/" + format_value(p.packet_bytes),
            "setup >= 0, packet_time > 0 and packet_bytes > 0 must be finite");
    }
    c3_ = p;
}

// ---- kernels ----------------------------------------------------------------------------------------------------

void Profile::set_kernel(std::string_view name, KernelConstant constant) {
    if (name.empty()) {
        throw_argument_error("llc::cost::Profile::set_kernel", "name", "\"\"", "must not be empty");
    }
    if (!std::isfinite(constant.seconds_per_unit) || constant.seconds_per_unit < 0.0) {
        throw_argument_error("llc::cost::Profile::set_kernel",
                             "seconds_per_unit",
                             format_value(constant.seconds_per_unit),
                             "must be finite and >= 0");
    }
    kernels_[std::string(name)] = std::move(constant);
}

bool Profile::has_kernel(std::string_view name) const {
    return kernels_.find(name) != kernels_.end();
}

const KernelConstant& Profile::kernel(std::string_view name) const {
    if (const auto it = kernels_.find(name); it != kernels_.end()) {
        return it->second;
    }
    std::string known;
    for (const auto& [k, v] : kernels_) {
        if (!known.empty()) {
            known += ", ";
        }
        known += k;
    }
    throw Error(missing_kernel_message("llc::cost::Profile::kernel", name) +
                " (it has: " + (known.empty() ? "none" : known) + ")");
}

double Profile::kernel_seconds(std::string_view name, double units) const {
    if (!std::isfinite(units) || units < 0.0) {
        throw_argument_error(
            "llc::cost::Profile::kernel_seconds", "units", format_value(units), "must be finite and >= 0");
    }
    return kernel(name).seconds_per_unit * units;
}

}  // namespace llc::cost
