// llc-compare NAME [--sizes N,N,…] [--repeat K] [--json]
// Runs one of ours against a peer on the same input in one run and prints a table (rank 0), or one JSON object per
// line with --json. Exit status: 0 success, 2 bad arguments, 1 any other failure.
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <llc/llc.hpp>
#include <llc/tools/card.hpp>
#include <llc/tools/run_command.hpp>
#include <llc/version.hpp>

namespace po = boost::program_options;

namespace {

/// Every comparison of every card.
const std::vector<llc::compare::Comparison>& comparisons() {
    return llc::tools::all_comparisons();
}

std::vector<std::int64_t> parse_sizes(const std::string& text) {
    std::vector<std::int64_t> sizes;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        std::size_t used = 0;
        long long value = 0;
        try {
            value = std::stoll(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != item.size() || value < 1) {
            throw llc::Error(
                llc::argument_message("llc-compare", "--sizes", item, "sizes are positive integers, comma separated"));
        }
        sizes.push_back(value);
    }
    return sizes;
}

void print_rows(const std::vector<llc::compare::Row>& rows, bool json) {
    if (json) {
        for (const auto& row : rows) {
            const nlohmann::json line{{"algorithm", row.algorithm},
                                      {"P", row.P},
                                      {"n", row.n},
                                      {"ours_median_s", row.ours_median_s},
                                      {"peer", row.peer},
                                      {"peer_median_s", row.peer_median_s},
                                      {"speedup_vs_peer", row.speedup_vs_peer()},
                                      {"build_flags", llc::build_flags}};
            std::cout << line.dump() << '\n';
        }
        return;
    }
    // The timings depend on how llc was compiled (-march=native or not): say so above them.
    std::printf("compiled with: %s\n", llc::build_flags);
    std::printf("%-24s %3s %12s %14s  %-36s %14s %9s\n",
                "algorithm",
                "P",
                "n",
                "ours (median)",
                "peer",
                "peer (median)",
                "speedup");
    for (const auto& row : rows) {
        std::printf("%-24s %3d %12lld %12.3f ms  %-36s %11.3f ms %8.3fx\n",
                    row.algorithm.c_str(),
                    row.P,
                    static_cast<long long>(row.n),
                    row.ours_median_s * 1e3,
                    row.peer.c_str(),
                    row.peer_median_s * 1e3,
                    row.speedup_vs_peer());
    }
}

}  // namespace

int main(int argc, char** argv) {
    llc::Environment env(argc, argv, {.keep_freed_memory = true});  // the cost model assumes freed memory is reused
    auto& world = env.world();
    const bool root = world.rank() == 0;
    std::string name;
    std::string sizes_text;
    llc::compare::Options options;
    bool json = false;
    po::options_description visible("llc-compare NAME [options]");
    visible.add_options()("help,h", "this text")("sizes", po::value(&sizes_text), "problem sizes n, comma separated")(
        "repeat", po::value(&options.repeat)->default_value(0), "repetitions per measurement (0: default)")(
        "json", po::bool_switch(&json), "one JSON object per line");
    po::options_description all;
    all.add(visible).add_options()("name", po::value(&name));
    po::positional_options_description positional;
    positional.add("name", 1);
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
        po::notify(vm);
        if (vm.count("help") != 0 || name.empty()) {
            if (root) {
                std::cout << visible << "\ncomparisons:\n";
                std::vector<std::pair<std::string, std::string>> rows;
                for (const auto& c : comparisons()) {
                    rows.emplace_back(c.name, c.description);
                }
                std::cout << llc::run::columns(rows);
            }
            return name.empty() && vm.count("help") == 0 ? 2 : 0;
        }
        if (!sizes_text.empty()) {
            options.sizes = parse_sizes(sizes_text);
        }
        if (options.repeat < 0) {
            throw llc::Error(
                llc::argument_message("llc-compare", "--repeat", std::to_string(options.repeat), "must be >= 0"));
        }
    } catch (const std::exception& e) {
        if (root) {
            std::cerr << "llc-compare: " << e.what() << '\n';
        }
        return 2;
    }
    const llc::compare::Comparison* chosen = nullptr;
    for (const auto& c : comparisons()) {
        if (c.name == name) {
            chosen = &c;
        }
    }
    if (chosen == nullptr) {
        if (root) {
            std::cerr << "llc-compare: argument 'NAME' = " << name << ": unknown comparison (see --help)\n";
        }
        return 2;
    }
    try {
        const auto rows = chosen->run(world, options);
        if (root) {
            print_rows(rows, json);
        }
    } catch (const std::exception& e) {
        // One rank failed mid-comparison; the others may be inside a collective: end the whole job, never hang.
        llc::abort_job("/", std::string("llc-compare: ") + e.what());
    }
    return 0;
}
