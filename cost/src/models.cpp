#include <algorithm>
#include <cmath>
#include <string>

#include <llc/cost/model.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/cost/seidel.hpp>
#include <llc/error.hpp>

#include "model_util.hpp"

namespace llc::cost {

namespace detail {

namespace {
using llc::detail::format_value;  // the shortest text that reads back as the same double
}  // namespace

Collective parse_collective(const std::string& function, std::string_view f) {
    const std::string name = base_collective(f);  // no cache state in these models: "swap.cold" is a swap
    namespace op = names::op;
    static constexpr std::pair<const char*, Collective> table[] = {{op::bcast, Collective::bcast},
                                                                   {op::reduce, Collective::reduce},
                                                                   {op::allreduce, Collective::allreduce},
                                                                   {op::gather, Collective::gather},
                                                                   {op::allgather, Collective::allgather},
                                                                   {op::scatter, Collective::scatter},
                                                                   {op::alltoall, Collective::alltoall},
                                                                   {op::barrier, Collective::barrier},
                                                                   {op::swap, Collective::swap},
                                                                   {op::shift, Collective::shift}};
    for (const auto& [n, c] : table) {
        if (name == n) {
            return c;
        }
    }
    throw_argument_error(function,
                         "f",
                         f,
                         "unknown collective (known: bcast, reduce, allreduce, gather(v), allgather(v), scatter(v), "
                         "alltoall(v), barrier, swap, shift)");
}

void check_price_arguments(const std::string& function, int P, double bytes) {
    if (P < 1) {
        throw_argument_error(function, "P", std::to_string(P), "must be >= 1");
    }
    if (!std::isfinite(bytes) || bytes < 0.0) {
        throw_argument_error(function, "bytes", format_value(bytes), "must be finite and >= 0");
    }
}

void check_division_arguments(const std::string& function, int P, std::span<const int> sizes, double bytes) {
    check_price_arguments(function, P, bytes);
    if (sizes.empty()) {
        throw_argument_error(function, "sizes", "{}", "a division has at least one task");
    }
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] < 1) {
            throw_argument_error(
                function, "sizes[" + std::to_string(i) + "]", std::to_string(sizes[i]), "must be >= 1");
        }
    }
}

std::optional<Bcast> seidel_broadcast(std::string_view f) noexcept {
    for (const Bcast algorithm : {Bcast::binomial, Bcast::bidirectional, Bcast::recursive_halving}) {
        if (f == bcast_superstep_name(algorithm)) {
            return algorithm;
        }
    }
    return std::nullopt;
}

double seidel_seconds(Bcast algorithm, int P, double bytes, double startup, double per_byte) {
    if (P == 1) {
        return 0.0;
    }
    return seidel::coefficients(algorithm, P).seconds(bytes, startup, per_byte);
}

}  // namespace detail

using detail::Collective;

// ---- CCM --------------------------------------------------------------------------------------------------------

CCM::CCM(Profile profile) : profile_(std::move(profile)) {}

Price CCM::collective(std::string_view f, int P, double bytes) const {
    detail::check_price_arguments("llc::cost::CCM::collective", P, bytes);
    const Lookup l = profile_.collective(f, P, bytes);
    return {l.seconds, l.extrapolated};
}

DivisionLookup CCM::division(int P, std::span<const int> sizes, double bytes) const {
    detail::check_division_arguments("llc::cost::CCM::division", P, sizes, bytes);
    DivisionLookup d = profile_.division(P, bytes);
    if (P == 1) {
        d.exchange = 0.0;  // one processor runs every task: nothing to exchange (as llc's run_division)
    }
    return d;
}

// ---- BSP --------------------------------------------------------------------------------------------------------

BSP::BSP(const Profile& profile) : table_(profile.bsp_table()) {
    if (table_.empty()) {
        throw Error("llc::cost::BSP: the profile has no BSP parameters (field 'bsp'); " + how_to_make_profile());
    }
}

BSP::BSP(std::map<int, BSPParams> table) : table_(std::move(table)) {
    if (table_.empty()) {
        throw_argument_error("llc::cost::BSP", "table", "{}", "needs g and l for at least one P");
    }
    for (const auto& [P, p] : table_) {
        if (P < 1 || !std::isfinite(p.g) || p.g < 0.0 || !std::isfinite(p.l) || p.l < 0.0) {
            throw_argument_error("llc::cost::BSP",
                                 "table[" + std::to_string(P) + "]",
                                 std::to_string(p.g),
                                 "P >= 1 with finite g, l >= 0");
        }
    }
}

BSPLookup BSP::params(int P) const {
    return interpolate_bsp(table_, P);
}

Price BSP::collective(std::string_view f, int P, double bytes) const {
    const std::string function = "llc::cost::BSP::collective";
    detail::check_price_arguments(function, P, bytes);
    if (const auto seidel = detail::seidel_broadcast(f)) {  // a superstep per hop: l + g·m
        if (P == 1) {
            return {0.0, false};
        }
        const BSPLookup b = params(P);
        return {detail::seidel_seconds(*seidel, P, bytes, b.params.l, b.params.g), b.extrapolated};
    }
    const Collective c = detail::parse_collective(function, f);
    if (P == 1) {
        return {0.0, false};
    }
    const BSPLookup b = params(P);
    const double g = b.params.g;
    const double l = b.params.l;
    const double others = static_cast<double>(P - 1);
    double seconds = 0.0;
    switch (c) {
        case Collective::bcast:
        case Collective::scatter:
        case Collective::gather:
        case Collective::reduce:
            seconds = g * others * bytes + l;  // the root sends or receives (P − 1)·m
            break;
        case Collective::allreduce:
            seconds = 2.0 * (g * others * bytes / P + l);  // reduce-scatter + allgather
            break;
        case Collective::allgather:
        case Collective::alltoall:
            seconds = g * others * bytes / P + l;  // (P − 1) blocks of h/P each way
            break;
        case Collective::barrier:
            seconds = l;
            break;
        case Collective::swap:
        case Collective::shift:  // every processor sends h/2 and receives h/2: an h/2-relation
            seconds = g * bytes / 2.0 + l;
            break;
    }
    return {seconds, b.extrapolated};
}

DivisionLookup BSP::division(int P, std::span<const int> sizes, double bytes) const {
    detail::check_division_arguments("llc::cost::BSP::division", P, sizes, bytes);
    if (P == 1) {
        return {};
    }
    const BSPLookup b = params(P);
    return {0.0, b.params.g * bytes / 2.0 + b.params.l, 0.0, b.extrapolated};
}

// ---- LogGP ------------------------------------------------------------------------------------------------------

namespace {
LogGPParams checked(const LogGPParams& p) {
    for (const double x : {p.L, p.o, p.g, p.G}) {
        if (!std::isfinite(x) || x < 0.0) {
            throw_argument_error("llc::cost::LogGP", "params", std::to_string(x), "L, o, g, G must be finite, >= 0");
        }
    }
    return p;
}
LogGPParams from_profile(const Profile& profile) {
    if (!profile.loggp()) {
        throw Error("llc::cost::LogGP: the profile has no LogGP parameters (field 'loggp'); " + how_to_make_profile());
    }
    return *profile.loggp();
}
HockneyParams hockney_from_profile(const Profile& profile) {
    if (!profile.hockney()) {
        throw Error("llc::cost::Hockney: the profile has no Hockney parameters (field 'hockney'); " +
                    how_to_make_profile());
    }
    return *profile.hockney();
}
}  // namespace

LogGP::LogGP(const LogGPParams& params) : p_(checked(params)) {}
LogGP::LogGP(const Profile& profile) : p_(checked(from_profile(profile))) {}

double LogGP::message(double bytes) const noexcept {
    return p_.L + 2.0 * p_.o + std::max(bytes - 1.0, 0.0) * p_.G;
}

double LogGP::messages(int k, double bytes) const noexcept {
    if (k <= 0) {
        return 0.0;
    }
    return message(bytes) + (k - 1) * std::max(p_.g, p_.o + std::max(bytes - 1.0, 0.0) * p_.G);
}

Price LogGP::collective(std::string_view f, int P, double bytes) const {
    const std::string function = "llc::cost::LogGP::collective";
    detail::check_price_arguments(function, P, bytes);
    if (const auto seidel = detail::seidel_broadcast(f)) {  // a hop is one message: L + 2o + G·m
        return {detail::seidel_seconds(*seidel, P, bytes, p_.L + 2.0 * p_.o, p_.G), false};
    }
    const Collective c = detail::parse_collective(function, f);
    if (P == 1) {
        return {0.0, false};
    }
    const double R = detail::ceil_log2(P);
    const double others = static_cast<double>(P - 1);
    const double start = p_.L + 2.0 * p_.o;
    switch (c) {
        case Collective::bcast:
        case Collective::reduce:
        case Collective::allreduce:
            return {R * message(bytes), false};
        case Collective::gather:
        case Collective::scatter:
            return {R * start + others * bytes * p_.G, false};
        case Collective::allgather:
            return {R * start + others * bytes / P * p_.G, false};
        case Collective::alltoall:
            return {messages(P - 1, bytes / P), false};
        case Collective::barrier:
            return {R * message(0.0), false};
        case Collective::swap:
        case Collective::shift:  // one message of h/2 per processor, all at once
            return {message(bytes / 2.0), false};
    }
    return {};
}

DivisionLookup LogGP::division(int P, std::span<const int> sizes, double bytes) const {
    detail::check_division_arguments("llc::cost::LogGP::division", P, sizes, bytes);
    if (P == 1 || sizes.size() < 2) {
        return {};
    }
    const int others = static_cast<int>(sizes.size()) - 1;
    return {0.0, messages(others, bytes / (2.0 * others)), 0.0, false};
}

// ---- Hockney ----------------------------------------------------------------------------------------------------

Hockney::Hockney(const HockneyParams& params) : p_(params) {
    if (!std::isfinite(p_.alpha) || p_.alpha < 0.0 || !std::isfinite(p_.beta) || p_.beta < 0.0) {
        throw_argument_error("llc::cost::Hockney",
                             "params",
                             std::to_string(p_.alpha) + "/" + std::to_string(p_.beta),
                             "alpha and beta must be finite, >= 0");
    }
}

Hockney::Hockney(const Profile& profile) : Hockney(hockney_from_profile(profile)) {}

Price Hockney::collective(std::string_view f, int P, double bytes) const {
    const std::string function = "llc::cost::Hockney::collective";
    detail::check_price_arguments(function, P, bytes);
    if (const auto seidel = detail::seidel_broadcast(f)) {  // a hop is α + β·m
        return {detail::seidel_seconds(*seidel, P, bytes, p_.alpha, p_.beta), false};
    }
    const Collective c = detail::parse_collective(function, f);
    if (P == 1) {
        return {0.0, false};
    }
    const double R = detail::ceil_log2(P);
    const double others = static_cast<double>(P - 1);
    const double a = p_.alpha;
    const double b = p_.beta;
    switch (c) {
        case Collective::bcast:
        case Collective::reduce:
        case Collective::allreduce:
            return {R * (a + b * bytes), false};
        case Collective::gather:
        case Collective::scatter:
            return {R * a + others * b * bytes, false};
        case Collective::allgather:
            return {R * a + others * b * bytes / P, false};
        case Collective::alltoall:
            return {others * (a + b * bytes / P), false};
        case Collective::barrier:
            return {R * a, false};
        case Collective::swap:
        case Collective::shift:  // one message of h/2 per processor, all at once
            return {a + b * bytes / 2.0, false};
    }
    return {};
}

DivisionLookup Hockney::division(int P, std::span<const int> sizes, double bytes) const {
    detail::check_division_arguments("llc::cost::Hockney::division", P, sizes, bytes);
    if (P == 1 || sizes.size() < 2) {
        return {};
    }
    const double others = static_cast<double>(sizes.size() - 1);
    return {0.0, others * p_.alpha + p_.beta * bytes / 2.0, 0.0, false};
}

// ---- the zoo ----------------------------------------------------------------------------------------------------

const std::vector<std::string>& model_names() {
    static const std::vector<std::string> names{"ccm", "bsp", "loggp", "hockney", "p3pc", "p3pc-loggp*", "c3"};
    return names;
}

std::unique_ptr<Model> make_model(std::string_view name, const Profile& profile) {
    if (name == "ccm") {
        return std::make_unique<CCM>(profile);
    }
    if (name == "bsp") {
        return std::make_unique<BSP>(profile);
    }
    if (name == "loggp") {
        return std::make_unique<LogGP>(profile);
    }
    if (name == "hockney") {
        return std::make_unique<Hockney>(profile);
    }
    if (name == "p3pc") {
        return std::make_unique<P3PC>(profile);
    }
    if (name == "p3pc-loggp*") {
        return std::make_unique<P3PC>(profile, P3PCOptions{Layout::cc, true});
    }
    if (name == "c3") {
        return std::make_unique<C3>(profile);
    }
    throw_argument_error("llc::cost::make_model",
                         "name",
                         name,
                         "unknown model (known: ccm, bsp, loggp, hockney, p3pc, p3pc-loggp*, c3)");
}

}  // namespace llc::cost
