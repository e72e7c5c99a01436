#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <llc/cost/model.hpp>
#include <llc/error.hpp>
#include <llc/log2.hpp>
#include <llc/partners.hpp>

#include "model_util.hpp"

namespace llc::cost {

namespace {

// What one processor does in a superstep (paper §2.2): messages sent / received and their packets.
struct Role {
    double ns = 0.0;        // n_s(i)
    double nr = 0.0;        // n_r(i)
    double sent = 0.0;      // Σ_j ⌈L_ij / l⌉
    double sent_max = 0.0;  // ⌈L_i,jmax / l⌉
    double received = 0.0;  // Σ_j ⌈L_ji / l⌉
};

struct SendRecv {
    double units = 0.0;   // S_i + R_i
    double setups = 0.0;  // set-ups among them
};

// Figure 3: total send time S_i and receive time R_i.
SendRecv send_recv(const C3Machine& m, const Role& r, const C3Options& o) {
    const bool sf = o.routing == C3Routing::store_and_forward;
    const double h = m.h;
    const double s = m.s;
    double S = 0.0;
    double R = 0.0;
    double setups = 0.0;
    if (o.send == C3SendMode::nonblocking) {
        if (r.ns > 0) {
            S = s * r.ns + (sf ? h * r.sent_max : h) + r.sent;
        }
        R = r.received;
        setups = r.ns;
    } else {
        if (r.ns > 0) {
            S = 2.0 * (s + h) * r.ns + (sf ? h * r.sent : h + r.sent);
        }
        if (r.nr > 0) {
            R = (s + h) * r.nr + (sf ? h * r.received : h + r.received);
        }
        setups = 2.0 * r.ns + r.nr;
    }
    return {S + R, setups};
}

void check_machine(const char* function, const C3Machine& m) {
    if (m.p < 1 || !std::isfinite(m.h) || m.h < 0.0 || !std::isfinite(m.b) || m.b <= 0.0 || !std::isfinite(m.l) ||
        m.l <= 0.0 || !std::isfinite(m.s) || m.s < 0.0) {
        throw_argument_error(function,
                             "machine",
                             "p=" + std::to_string(m.p) + " h=" + std::to_string(m.h) + " b=" + std::to_string(m.b) +
                                 " l=" + std::to_string(m.l) + " s=" + std::to_string(m.s),
                             "need p >= 1, h >= 0, b > 0, l > 0, s >= 0");
    }
}

C3Units finish(const C3Machine& m, C3Units u, double packets_total) {
    if (u.cong > 0) {
        u.L_a = packets_total / u.cong;
        // ⌈cong / b⌉ and ⌈cong / p⌉ count routing steps: they keep their ceilings in every mode (the paper's
        // recurrence for logp-lev-sq charges a single message ⌈1/b⌉ = 1, §4.1).
        const double over_b = std::ceil(u.cong / m.b);
        const double over_p = std::ceil(u.cong / m.p);
        u.link = u.L_a * over_b;
        u.processor = u.L_a * over_p * m.h;
    }
    return u;
}

}  // namespace

double c3_mesh_latency(int k, int k2) {
    if (k < 1 || k2 < 1) {
        throw_argument_error(
            "llc::cost::c3_mesh_latency", "k x k2", std::to_string(k) + "x" + std::to_string(k2), "sides must be >= 1");
    }
    const auto line = [](double n) { return (n * n - 1.0) / (3.0 * n); };  // average |i − j| on a path of n
    return line(k) + line(k2);
}

namespace {
int mesh_side(int p) {
    int k = static_cast<int>(std::sqrt(static_cast<double>(p)));
    while (k > 1 && p % k != 0) {
        --k;
    }
    return std::max(k, 1);
}
}  // namespace

double c3_latency(C3Topology topology, int p) {
    if (p < 1) {
        throw_argument_error("llc::cost::c3_latency", "p", std::to_string(p), "must be >= 1");
    }
    const double n = p;
    switch (topology) {
        case C3Topology::complete:
            return (n - 1.0) / n;
        case C3Topology::linear_array:
            return (n * n - 1.0) / (3.0 * n);
        case C3Topology::ring:
            return p % 2 == 0 ? n / 4.0 : (n * n - 1.0) / (4.0 * n);
        case C3Topology::mesh: {
            const int k = mesh_side(p);
            return c3_mesh_latency(k, p / k);
        }
        case C3Topology::hypercube:
            if (!llc::is_power_of_two(p)) {
                throw_argument_error("llc::cost::c3_latency",
                                     "p",
                                     std::to_string(p),
                                     "a hypercube has a power-of-two number of processors");
            }
            return detail::ceil_log2(p) / 2.0;
    }
    return 0.0;
}

double c3_bisection(C3Topology topology, int p) {
    if (p < 1) {
        throw_argument_error("llc::cost::c3_bisection", "p", std::to_string(p), "must be >= 1");
    }
    if (p == 1) {
        return 1.0;  // nothing to cut; 1 keeps ⌈cong / b⌉ defined
    }
    switch (topology) {
        case C3Topology::complete:
            return std::floor(p / 2.0) * std::ceil(p / 2.0);
        case C3Topology::linear_array:
            return 1.0;
        case C3Topology::ring:
            return p == 2 ? 1.0 : 2.0;
        case C3Topology::mesh:
            return mesh_side(p);
        case C3Topology::hypercube:
            if (!llc::is_power_of_two(p)) {
                throw_argument_error("llc::cost::c3_bisection",
                                     "p",
                                     std::to_string(p),
                                     "a hypercube has a power-of-two number of processors");
            }
            return p / 2.0;
    }
    return 1.0;
}

C3Units c3_superstep(const C3Machine& machine, std::span<const C3Message> messages, const C3Options& options) {
    constexpr const char* function = "llc::cost::c3_superstep";
    check_machine(function, machine);
    std::map<std::pair<int, int>, double> pairs;  // L_ij, repeated messages of a pair added up
    for (std::size_t k = 0; k < messages.size(); ++k) {
        const C3Message& msg = messages[k];
        if (msg.from < 0 || msg.from >= machine.p || msg.to < 0 || msg.to >= machine.p) {
            throw_argument_error(function,
                                 "messages[" + std::to_string(k) + "]",
                                 std::to_string(msg.from) + "->" + std::to_string(msg.to),
                                 "processors must lie in [0, " + std::to_string(machine.p) + ")");
        }
        if (!std::isfinite(msg.bytes) || msg.bytes < 0.0) {
            throw_argument_error(function,
                                 "messages[" + std::to_string(k) + "].bytes",
                                 std::to_string(msg.bytes),
                                 "must be finite and >= 0");
        }
        if (msg.from != msg.to && msg.bytes > 0.0) {
            pairs[{msg.from, msg.to}] += msg.bytes;
        }
    }
    std::vector<Role> roles(static_cast<std::size_t>(machine.p));
    C3Units u;
    double packets_total = 0.0;
    for (const auto& [pair, bytes] : pairs) {
        const double packets = options.ceilings ? std::ceil(bytes / machine.l) : bytes / machine.l;
        Role& from = roles[static_cast<std::size_t>(pair.first)];
        Role& to = roles[static_cast<std::size_t>(pair.second)];
        from.ns += 1.0;
        from.sent += packets;
        from.sent_max = std::max(from.sent_max, packets);
        to.nr += 1.0;
        to.received += packets;
        packets_total += packets;
        u.cong += 1.0;
    }
    for (const Role& r : roles) {
        const SendRecv sr = send_recv(machine, r, options);
        if (sr.units > u.send_recv) {
            u.send_recv = sr.units;
            u.setups = sr.setups;
        }
    }
    return finish(machine, u, packets_total);
}

C3Units c3_pattern(
    const C3Machine& machine, C3Pattern pattern, double L, const C3Options& options, bool paper_approximation) {
    constexpr const char* function = "llc::cost::c3_pattern";
    check_machine(function, machine);
    if (!std::isfinite(L) || L < 0.0) {
        throw_argument_error(function, "L", std::to_string(L), "must be finite and >= 0");
    }
    const int p = machine.p;
    if (!paper_approximation) {
        std::vector<C3Message> messages;
        switch (pattern) {
            case C3Pattern::one_to_one:
                for (int i = 0; i < p && p > 1; ++i) {
                    messages.push_back({i, (i + 1) % p, L});
                }
                break;
            case C3Pattern::one_to_all:
                for (int j = 1; j < p; ++j) {
                    messages.push_back({0, j, L});
                }
                break;
            case C3Pattern::all_to_one:
                for (int j = 1; j < p; ++j) {
                    messages.push_back({j, 0, L});
                }
                break;
            case C3Pattern::all_to_all:
                for (int i = 0; i < p; ++i) {
                    for (int j = 0; j < p; ++j) {
                        if (i != j) {
                            messages.push_back({i, j, L});
                        }
                    }
                }
                break;
        }
        return c3_superstep(machine, messages, options);
    }
    // The paper's §4 arithmetic: p written for p − 1, no ceilings.
    C3Options o = options;
    o.ceilings = false;
    const double n = p;
    const double pk = L / machine.l;
    std::vector<Role> roles;
    double cong = 0.0;
    switch (pattern) {
        case C3Pattern::one_to_one:
            roles.push_back({1.0, 1.0, pk, pk, pk});
            cong = n;
            break;
        case C3Pattern::one_to_all:
            roles.push_back({n, 0.0, n * pk, pk, 0.0});  // the source
            roles.push_back({0.0, 1.0, 0.0, 0.0, pk});   // a destination
            cong = n;
            break;
        case C3Pattern::all_to_one:
            roles.push_back({0.0, n, 0.0, 0.0, n * pk});  // the destination
            roles.push_back({1.0, 0.0, pk, pk, 0.0});     // a source
            cong = n;
            break;
        case C3Pattern::all_to_all:
            roles.push_back({n, n, n * pk, pk, n * pk});
            cong = n * n;
            break;
    }
    C3Units u;
    for (const Role& r : roles) {
        const SendRecv sr = send_recv(machine, r, o);
        if (sr.units > u.send_recv) {
            u.send_recv = sr.units;
            u.setups = sr.setups;
        }
    }
    u.cong = L > 0.0 ? cong : 0.0;
    return finish(machine, u, pk * u.cong);
}

double c3_computation_units(std::span<const double> bytes_accessed, double l) {
    if (!std::isfinite(l) || l <= 0.0) {
        throw_argument_error("llc::cost::c3_computation_units", "l", std::to_string(l), "must be > 0");
    }
    double units = 0.0;
    for (const double t : bytes_accessed) {
        if (!std::isfinite(t) || t < 0.0) {
            throw_argument_error(
                "llc::cost::c3_computation_units", "bytes_accessed", std::to_string(t), "must be finite and >= 0");
        }
        units = std::max(units, std::ceil(t / l));
    }
    return units;
}

// ---- C3 as a Model ----------------------------------------------------------------------------------------------

namespace {
C3Params c3_from_profile(const Profile& profile) {
    if (!profile.c3()) {
        throw Error("llc::cost::C3: the profile has no C3 parameters (field 'c3'); " + how_to_make_profile());
    }
    return *profile.c3();
}
}  // namespace

C3::C3(const C3Params& params, C3Options options) : params_(params), options_(options) {
    if (!std::isfinite(params_.setup) || params_.setup < 0.0 || !std::isfinite(params_.packet_time) ||
        params_.packet_time <= 0.0 || !std::isfinite(params_.packet_bytes) || params_.packet_bytes <= 0.0) {
        throw_argument_error("llc::cost::C3",
                             "params",
                             std::to_string(params_.setup) + "/" + std::to_string(params_.packet_time) + "/" +
                                 std::to_string(params_.packet_bytes),
                             "setup >= 0, packet_time > 0, packet_bytes > 0");
    }
}

C3::C3(const Profile& profile, C3Options options) : C3(c3_from_profile(profile), options) {}

C3Machine C3::machine(int P) const {
    return {P,
            c3_latency(params_.topology, P),
            c3_bisection(params_.topology, P),
            params_.packet_bytes,
            params_.setup / params_.packet_time};
}

Price C3::collective(std::string_view f, int P, double bytes) const {
    const std::string function = "llc::cost::C3::collective";
    detail::check_price_arguments(function, P, bytes);
    const auto seidel = detail::seidel_broadcast(f);
    const detail::Collective c = seidel ? detail::Collective::bcast : detail::parse_collective(function, f);
    if (P == 1) {
        return {0.0, false};
    }
    const C3Machine m = machine(P);
    const auto units = [&](C3Pattern pattern, double L) { return c3_pattern(m, pattern, L, options_).total(); };
    if (seidel) {
        // A hop is a one-to-one pattern: its 0-byte units are the start-up, its growth to m the bytes'.
        const double startup = units(C3Pattern::one_to_one, 0.0);
        const double per_byte =
            bytes > 0.0 ? std::max(units(C3Pattern::one_to_one, bytes) - startup, 0.0) / bytes : 0.0;
        return {detail::seidel_seconds(*seidel, P, bytes, startup, per_byte) * params_.packet_time, false};
    }
    double u = 0.0;
    switch (c) {
        case detail::Collective::bcast:
        case detail::Collective::scatter:
            u = units(C3Pattern::one_to_all, bytes);
            break;
        case detail::Collective::gather:
        case detail::Collective::reduce:
            u = units(C3Pattern::all_to_one, bytes);
            break;
        case detail::Collective::allreduce:
            u = units(C3Pattern::all_to_one, bytes) + units(C3Pattern::one_to_all, bytes);
            break;
        case detail::Collective::allgather:
        case detail::Collective::alltoall:
            u = units(C3Pattern::all_to_all, bytes / P);
            break;
        case detail::Collective::barrier:  // a one-byte token in and out
            u = units(C3Pattern::all_to_one, 1.0) + units(C3Pattern::one_to_all, 1.0);
            break;
        case detail::Collective::swap:
        case detail::Collective::shift:  // the one-to-one pattern is the ring i → i + 1 itself (c3_pattern)
            u = units(C3Pattern::one_to_one, bytes / 2.0);
            break;
    }
    return {u * params_.packet_time, false};
}

DivisionLookup C3::division(int P, std::span<const int> sizes, double bytes) const {
    detail::check_division_arguments("llc::cost::C3::division", P, sizes, bytes);
    const int r = static_cast<int>(sizes.size());
    if (P == 1 || r < 2) {
        return {};
    }
    const C3Machine m = machine(P);
    const double per_message = bytes / (2.0 * (r - 1));
    std::vector<C3Message> messages;
    int total = 0;
    for (const int s : sizes) {
        total += s;
    }
    if (total == P) {
        std::vector<int> offset(sizes.size(), 0);
        for (std::size_t i = 1; i < sizes.size(); ++i) {
            offset[i] = offset[i - 1] + sizes[i - 1];
        }
        for (int i = 0; i < r; ++i) {
            for (int a = 0; a < sizes[static_cast<std::size_t>(i)]; ++a) {
                for (int j = 0; j < r; ++j) {
                    if (j == i) {
                        continue;
                    }
                    for (const int b : llc::partners(sizes, i, a, j)) {
                        messages.push_back({offset[static_cast<std::size_t>(i)] + a,
                                            offset[static_cast<std::size_t>(j)] + b,
                                            per_message});
                    }
                }
            }
        }
    } else {
        // P < r: tasks ran on single processors; every processor ends up with every result.
        for (int i = 0; i < P; ++i) {
            for (int j = 0; j < P; ++j) {
                if (i != j) {
                    messages.push_back({i, j, bytes / (2.0 * (P - 1))});
                }
            }
        }
    }
    return {0.0, c3_superstep(m, messages, options_).total() * params_.packet_time, 0.0, false};
}

}  // namespace llc::cost
