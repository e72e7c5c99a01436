// The machine profile as a file: Profile::to_json / from_json (the JSON text, format version checked) and save / load.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include <llc/cost/profile.hpp>
#include <llc/error.hpp>
#include <llc/file.hpp>

#include "json_util.hpp"
#include "piecewise_json.hpp"

namespace llc::cost {

namespace {

using detail::field;
using detail::Json;
using detail::number;

int parse_P(const std::string& key, const std::string& where) {
    std::size_t used = 0;
    int P = 0;
    try {
        P = std::stoi(key, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != key.size() || P < 1) {
        throw Error(where + ": key '" + key + "' is not a processor count >= 1");
    }
    return P;
}

}  // namespace

std::string Profile::to_json() const {
    Json j;
    j["format"] = "llc-profile";
    j["version"] = profile_format_version;
    j["meta"] = {{"host", meta_.host},
                 {"machine", meta_.machine},
                 {"mpi_library", meta_.mpi_library},
                 {"date", meta_.date},
                 {"quick", meta_.quick},
                 {"world_size", meta_.world_size},
                 {"canary_cpu_s", meta_.canary_cpu_s},
                 {"canary_link_s", meta_.canary_link_s},
                 {"canary_link_median_s", meta_.canary_link_median_s},
                 {"canary_throughput_s", meta_.canary_throughput_s}};
    if (meta_.kernel_rank_ratio > 0.0) {
        j["meta"]["kernel_rank_ratio"] = meta_.kernel_rank_ratio;
    }
    if (meta_.llc_bytes > 0.0) {
        j["meta"]["llc_bytes"] = meta_.llc_bytes;
    }
    if (meta_.effective_llc_bytes > 0.0) {
        j["meta"]["effective_llc_bytes"] = meta_.effective_llc_bytes;
    }
    if (!meta_.nodes.empty()) {
        j["meta"]["nodes"] = meta_.nodes;
    }
    if (!meta_.node_of_rank.empty()) {
        j["meta"]["node_of_rank"] = meta_.node_of_rank;
    }
    Json collectives = Json::object();
    for (const auto& [name, fits] : collectives_) {
        Json per_P = Json::object();
        for (const auto& [P, fit] : fits) {
            per_P[std::to_string(P)] = detail::piecewise_to_json(fit);
        }
        collectives[name] = per_P;
    }
    j["collectives"] = collectives;
    Json division = Json::object();
    for (const auto& [P, cost] : division_) {
        division[std::to_string(P)] = {
            {"split", cost.split}, {"exchange", detail::piecewise_to_json(cost.exchange)}, {"rejoin", cost.rejoin}};
    }
    j["division"] = division;
    if (std::any_of(p2p_.begin(), p2p_.end(), [](const auto& f) { return f.has_value(); })) {
        Json p2p = Json::object();
        for (const Path path : {Path::send, Path::recv, Path::full}) {
            for (const Layout layout : {Layout::cc, Layout::cn, Layout::nc, Layout::nn}) {
                if (const auto& f = p2p_[p2p_index(path, layout)]) {
                    p2p[std::string(to_string(path))][std::string(to_string(layout))] = detail::piecewise_to_json(*f);
                }
            }
        }
        j["point_to_point"] = p2p;
    }
    if (loggp_) {
        j["loggp"] = {{"L", loggp_->L}, {"o", loggp_->o}, {"g", loggp_->g}, {"G", loggp_->G}};
    }
    if (!bsp_.empty()) {
        Json bsp = Json::object();
        for (const auto& [P, p] : bsp_) {
            bsp[std::to_string(P)] = {{"g", p.g}, {"l", p.l}};
        }
        j["bsp"] = bsp;
    }
    if (hockney_) {
        j["hockney"] = {{"alpha", hockney_->alpha}, {"beta", hockney_->beta}};
    }
    if (c3_) {
        j["c3"] = {{"setup", c3_->setup},
                   {"packet_time", c3_->packet_time},
                   {"packet_bytes", c3_->packet_bytes},
                   {"topology", std::string(to_string(c3_->topology))}};
    }
    Json kernels = Json::object();
    for (const auto& [name, k] : kernels_) {
        kernels[name] = {{"seconds_per_unit", k.seconds_per_unit}, {"unit", k.unit}};
    }
    j["kernels"] = kernels;
    return j.dump(1);
}

Profile Profile::from_json(std::string_view text, std::string_view source) {
    const std::string hint = how_to_make_profile();
    const std::string src(source);
    const auto fail = [&](const std::string& what) -> Error {
        return Error("llc::cost::Profile: " + src + ": " + what + "; " + hint);
    };
    Json j;
    try {
        j = Json::parse(text);
    } catch (const Json::exception& e) {
        throw fail(std::string("not valid JSON (") + e.what() + ")");
    }
    try {
        if (!j.is_object()) {
            throw fail("not a profile (expected a JSON object)");
        }
        const Json& version = field(j, "version", src + ": field 'version'");
        if (!version.is_number_integer() || version.get<int>() != profile_format_version) {
            throw fail("field 'version' is " + version.dump() + ", this build reads version " +
                       std::to_string(profile_format_version) + " (re-calibrate)");
        }
        Profile p;
        const Json& meta = field(j, "meta", src);
        const std::string wm = src + ".meta";
        const auto text_field = [&](const char* key) {
            const Json& v = field(meta, key, wm);
            if (!v.is_string()) {
                throw fail("field 'meta." + std::string(key) + "' must be a string");
            }
            return v.get<std::string>();
        };
        p.meta_.host = text_field("host");
        p.meta_.machine = text_field("machine");
        p.meta_.mpi_library = text_field("mpi_library");
        p.meta_.date = text_field("date");
        const Json& quick = field(meta, "quick", wm);
        if (!quick.is_boolean()) {
            throw fail("field 'meta.quick' must be true or false");
        }
        p.meta_.quick = quick.get<bool>();
        p.meta_.world_size = static_cast<int>(number(field(meta, "world_size", wm), wm + ".world_size"));
        // Optional (profiles before the canaries lack them): 0 = not recorded.
        for (const auto& [key, target] : {std::pair{"canary_cpu_s", &p.meta_.canary_cpu_s},
                                          std::pair{"canary_link_s", &p.meta_.canary_link_s},
                                          std::pair{"canary_link_median_s", &p.meta_.canary_link_median_s},
                                          std::pair{"canary_throughput_s", &p.meta_.canary_throughput_s},
                                          std::pair{"kernel_rank_ratio", &p.meta_.kernel_rank_ratio},
                                          std::pair{"llc_bytes", &p.meta_.llc_bytes},
                                          std::pair{"effective_llc_bytes", &p.meta_.effective_llc_bytes}}) {
            if (meta.contains(key)) {
                const double v = number(meta.at(key), wm + "." + key);
                if (!(v >= 0.0)) {
                    throw fail("field 'meta." + std::string(key) + "' must be >= 0");
                }
                *target = v;
            }
        }
        // Optional integer arrays: profiles before their record lack them.
        for (const auto& [key, least, what, target] :
             {std::tuple{"nodes", 1, "ranks per node", &p.meta_.nodes},
              std::tuple{"node_of_rank", 0, "node numbers", &p.meta_.node_of_rank}}) {
            if (!meta.contains(key)) {
                continue;
            }
            const Json& values = meta.at(key);
            if (!values.is_array()) {
                throw fail("field 'meta." + std::string(key) + "' must be an array of " + what);
            }
            for (const Json& n : values) {
                if (!n.is_number_integer() || n.get<int>() < least) {
                    throw fail("field 'meta." + std::string(key) + "' holds " + n.dump() + ": " + what +
                               " must be integers >= " + std::to_string(least));
                }
                target->push_back(n.get<int>());
            }
        }

        const Json& collectives = field(j, "collectives", src);
        if (!collectives.is_object() || collectives.empty()) {
            throw fail("field 'collectives' is empty: the profile is incomplete");
        }
        for (const auto& [name, fits] : collectives.items()) {
            const std::string wc = "collectives." + name;
            if (!fits.is_object() || fits.empty()) {
                throw fail("field '" + wc + "' has no fit");
            }
            for (const auto& [key, fit] : fits.items()) {
                const int P = parse_P(key, src + ": " + wc);
                p.collectives_[name][P] = detail::piecewise_from_json(fit, src + ": " + wc + "." + key);
            }
        }
        const Json& division = field(j, "division", src);
        if (!division.is_object() || division.empty()) {
            throw fail("field 'division' is empty: the profile is incomplete");
        }
        for (const auto& [key, cost] : division.items()) {
            const std::string wd = src + ": division." + key;
            const int P = parse_P(key, wd);
            DivisionCost c;
            c.split = number(field(cost, "split", wd), wd + ".split");
            c.exchange = detail::piecewise_from_json(field(cost, "exchange", wd), wd + ".exchange");
            c.rejoin = number(field(cost, "rejoin", wd), wd + ".rejoin");
            p.division_[P] = std::move(c);
        }
        if (const auto it = j.find("point_to_point"); it != j.end()) {
            for (const auto& [path_name, layouts] : it->items()) {
                const Path path = path_from_string(path_name);
                for (const auto& [layout_name, fit] : layouts.items()) {
                    p.p2p_[p2p_index(path, layout_from_string(layout_name))] =
                        detail::piecewise_from_json(fit, src + ": point_to_point." + path_name + "." + layout_name);
                }
            }
        }
        if (const auto it = j.find("loggp"); it != j.end()) {
            const std::string w = src + ": loggp";
            p.loggp_ = LogGPParams{number(field(*it, "L", w), w + ".L"),
                                   number(field(*it, "o", w), w + ".o"),
                                   number(field(*it, "g", w), w + ".g"),
                                   number(field(*it, "G", w), w + ".G")};
        }
        if (const auto it = j.find("bsp"); it != j.end()) {
            for (const auto& [key, params] : it->items()) {
                const std::string w = src + ": bsp." + key;
                p.bsp_[parse_P(key, w)] =
                    BSPParams{number(field(params, "g", w), w + ".g"), number(field(params, "l", w), w + ".l")};
            }
        }
        if (const auto it = j.find("hockney"); it != j.end()) {
            const std::string w = src + ": hockney";
            p.hockney_ =
                HockneyParams{number(field(*it, "alpha", w), w + ".alpha"), number(field(*it, "beta", w), w + ".beta")};
        }
        if (const auto it = j.find("c3"); it != j.end()) {
            const std::string w = src + ": c3";
            const Json& topology = field(*it, "topology", w);
            if (!topology.is_string()) {
                throw fail("field 'c3.topology' must be a string");
            }
            C3Params c3{number(field(*it, "setup", w), w + ".setup"),
                        number(field(*it, "packet_time", w), w + ".packet_time"),
                        number(field(*it, "packet_bytes", w), w + ".packet_bytes"),
                        c3_topology_from_string(topology.get<std::string>())};
            if (c3.packet_time <= 0.0 || c3.packet_bytes <= 0.0) {
                throw fail("fields 'c3.packet_time' and 'c3.packet_bytes' must be > 0");
            }
            p.c3_ = c3;
        }
        if (const auto it = j.find("kernels"); it != j.end()) {
            for (const auto& [name, k] : it->items()) {
                const std::string w = src + ": kernels." + name;
                const Json& unit = field(k, "unit", w);
                if (!unit.is_string()) {
                    throw fail("field 'kernels." + name + ".unit' must be a string");
                }
                p.kernels_[name] = KernelConstant{number(field(k, "seconds_per_unit", w), w + ".seconds_per_unit"),
                                                  unit.get<std::string>()};
            }
        }
        return p;
    } catch (const Json::exception& e) {
        throw fail(std::string("malformed (") + e.what() + ")");
    } catch (const Error& e) {
        const std::string what = e.what();
        if (what.find(hint) != std::string::npos) {
            throw;
        }
        throw fail(what);
    }
}

void Profile::save(const std::string& path) const {
    write_file_atomically(path, to_json() + "\n", "llc::cost::Profile::save", /*create_directories=*/true);
}

Profile Profile::load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error("llc::cost::Profile::load: no machine profile at '" + path + "' (" + std::strerror(errno) + "); " +
                    how_to_make_profile() + " (or set LLC_PROFILE to an existing profile)");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return from_json(text.str(), path);
}

Profile Profile::load_default() {
    return load(default_profile_path());
}

}  // namespace llc::cost
