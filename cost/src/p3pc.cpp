#include <algorithm>
#include <string>

#include <llc/cost/model.hpp>
#include <llc/error.hpp>

#include "model_util.hpp"

namespace llc::cost {

namespace {

constexpr Path paths[] = {Path::send, Path::recv, Path::full};
constexpr Layout layouts[] = {Layout::cc, Layout::cn, Layout::nc, Layout::nn};

std::size_t index(Path path, Layout layout) {
    return static_cast<std::size_t>(path) * 4 + static_cast<std::size_t>(layout);
}

int exact_log2(const char* function, const char* argument, int x) {
    if (x < 1 || (x & (x - 1)) != 0) {
        throw_argument_error(function, argument, std::to_string(x), "must be a power of two");
    }
    return detail::ceil_log2(x);
}

}  // namespace

P3PC::P3PC(const Profile& profile, P3PCOptions options) : options_(options) {
    for (const Path path : paths) {
        for (const Layout layout : layouts) {
            table_[index(path, layout)] = profile.point_to_point(path, layout);  // throws naming what is missing
        }
    }
}

const Piecewise& P3PC::table(Path path, Layout layout) const {
    return table_[index(path, layout)];
}

double P3PC::time(Path path, Layout layout, double bytes) const {
    if (!options_.loggp_star) {
        return table(path, layout)(bytes);
    }
    // LogGP* (paper §5): g = t_cs, L = t_cf, G = t_af,cc(n) = T_full,cc(n) − t_cf, the same for every layout.
    const double full = table(Path::full, Layout::cc)(bytes);
    if (path == Path::full) {
        return full;
    }
    const double t_cs = table(Path::send, Layout::cc)(0.0);
    const double t_cf = table(Path::full, Layout::cc)(0.0);
    return t_cs + std::max(0.0, full - t_cf);
}

double P3PC::oft_scatter(int P, int X, double block) const {
    if (P < 2) {
        return 0.0;
    }
    const Layout M = X == 1 ? Layout::cc : Layout::nc;
    const double send = time(Path::send, M, block);
    const double time1 = (P - 1) * send;                               // the root, busy with every send
    const double time2 = (P - 2) * send + time(Path::full, M, block);  // the last leaf served
    return std::max(time1, time2);
}

double P3PC::oft_gather(int P, int X, double block) const {
    if (P < 2) {
        return 0.0;
    }
    const Layout M = X == 1 ? Layout::cc : Layout::cn;
    const double recv = time(Path::recv, M, block);
    return std::max((P - 1) * recv, (P - 2) * recv + time(Path::full, M, block));
}

double P3PC::sbt_scatter(int P, int X, double total) const {
    const int log_P = exact_log2("llc::cost::P3PC::sbt_scatter", "P", P);
    const int log_X = exact_log2("llc::cost::P3PC::sbt_scatter", "X", X);
    double time1 = 0.0;
    double time2 = 0.0;
    double size = total;
    for (int i = 1; i <= log_P; ++i) {
        size /= 2.0;  // the paper prints imw·imh/(2·i); total/2^i is meant (digest §7)
        const Layout M = i <= log_P - log_X ? Layout::cc : Layout::nc;
        time1 += time(Path::send, M, size);
        time2 += time(Path::full, M, size);
    }
    return std::max(time1, time2);
}

double P3PC::sbt_gather(int P, int X, double total) const {
    const int log_P = exact_log2("llc::cost::P3PC::sbt_gather", "P", P);
    const int log_X = exact_log2("llc::cost::P3PC::sbt_gather", "X", X);
    double time1 = 0.0;
    double time2 = 0.0;
    double size = total;
    for (int i = 1; i <= log_P; ++i) {
        size /= 2.0;
        const Layout M = i <= log_P - log_X ? Layout::cc : Layout::cn;
        time1 += time(Path::recv, M, size);
        time2 += time(Path::full, M, size);
    }
    return std::max(time1, time2);
}

double P3PC::border_exchange(double vertical, double horizontal, bool left_right, bool up_down) const {
    double t = 0.0;
    if (left_right) {
        t += 2.0 * time(Path::full, Layout::nn, vertical);
    }
    if (up_down) {
        t += 2.0 * time(Path::full, Layout::cc, horizontal);
    }
    return t;
}

Price P3PC::collective(std::string_view f, int P, double bytes) const {
    const std::string function = "llc::cost::P3PC::collective";
    detail::check_price_arguments(function, P, bytes);
    if (const auto seidel = detail::seidel_broadcast(f)) {
        // A hop is a full path of the model's layout: its 0-byte time is the start-up, its growth to m the bytes'.
        const double startup = time(Path::full, options_.layout, 0.0);
        const double per_byte =
            bytes > 0.0 ? std::max(time(Path::full, options_.layout, bytes) - startup, 0.0) / bytes : 0.0;
        return {detail::seidel_seconds(*seidel, P, bytes, startup, per_byte), false};
    }
    const detail::Collective c = detail::parse_collective(function, f);
    if (P == 1) {
        return {0.0, false};
    }
    const Layout M = options_.layout;
    const double R = detail::ceil_log2(P);
    // The largest single message priced, to flag prices beyond the benchmarked sizes.
    double largest = 0.0;
    const auto tree = [&](Path busy, double m) { return std::max(R * time(busy, M, m), R * time(Path::full, M, m)); };
    const auto spread = [&](Path busy, double total) {  // SBT: the root's i-th message carries total / 2^i
        double time1 = 0.0;
        double time2 = 0.0;
        double size = total;
        for (int i = 1; i <= static_cast<int>(R); ++i) {
            size /= 2.0;
            time1 += time(busy, M, size);
            time2 += time(Path::full, M, size);
        }
        return std::max(time1, time2);
    };
    double seconds = 0.0;
    switch (c) {
        case detail::Collective::bcast:
            seconds = tree(Path::send, bytes);
            break;
        case detail::Collective::reduce:
            seconds = tree(Path::recv, bytes);
            break;
        case detail::Collective::allreduce:
            seconds = tree(Path::recv, bytes) + tree(Path::send, bytes);
            break;
        case detail::Collective::scatter:
            seconds = spread(Path::send, bytes * P);
            break;
        case detail::Collective::gather:
            seconds = spread(Path::recv, bytes * P);
            break;
        case detail::Collective::allgather:
            seconds = spread(Path::recv, bytes) + tree(Path::send, bytes);
            break;
        case detail::Collective::alltoall: {
            const double m = bytes / P;
            seconds = (P - 1) * std::max({time(Path::send, M, m), time(Path::recv, M, m), time(Path::full, M, m)});
            break;
        }
        case detail::Collective::barrier:
            seconds = R * time(Path::full, M, 0.0);
            break;
        case detail::Collective::swap:
        case detail::Collective::shift:  // each processor's send to one neighbour, all at once: one full path of h/2
            seconds = time(Path::full, M, bytes / 2.0);
            break;
    }
    switch (c) {
        case detail::Collective::scatter:
        case detail::Collective::gather:
            largest = bytes * P / 2.0;
            break;
        case detail::Collective::alltoall:
            largest = bytes / P;
            break;
        case detail::Collective::swap:
        case detail::Collective::shift:
            largest = bytes / 2.0;
            break;
        case detail::Collective::barrier:
            largest = 0.0;
            break;
        default:
            largest = bytes;
            break;
    }
    return {seconds, table(Path::full, M).extrapolates(largest)};
}

DivisionLookup P3PC::division(int P, std::span<const int> sizes, double bytes) const {
    detail::check_division_arguments("llc::cost::P3PC::division", P, sizes, bytes);
    if (P == 1 || sizes.size() < 2) {
        return {};
    }
    const double others = static_cast<double>(sizes.size() - 1);
    const double m = bytes / (2.0 * others);
    return {
        0.0, others * time(Path::full, options_.layout, m), 0.0, table(Path::full, options_.layout).extrapolates(m)};
}

}  // namespace llc::cost
