#include "run_rows.hpp"

#include <utility>

namespace llc::cards::rows {

void require_one_input(const po::variables_map& vm, const std::string& message) {
    if ((vm.count("n") != 0U) == (vm.count("input") != 0U)) {
        throw UsageError(message);
    }
}

std::int64_t generated_side(const po::variables_map& vm) {
    const auto n = vm["n"].as<std::int64_t>();
    if (n < 1) {
        throw UsageError("--n: " + std::to_string(n) + " must be at least 1");
    }
    return n;
}

SweepLayout layout_option(const po::variables_map& vm, const SweepLayout& fallback) {
    SweepLayout layout = fallback;
    for (auto [option, value] : {std::pair{"r", &layout.r}, std::pair{"k", &layout.k}}) {
        if (vm.count(option) != 0U) {
            *value = vm[option].as<std::int64_t>();
        }
        if (*value < 1) {
            throw UsageError(std::string("--") + option + ": " + std::to_string(*value) + " must be at least 1");
        }
    }
    return layout;
}

std::optional<std::string> output_option(const po::variables_map& vm,
                                         std::initializer_list<std::string_view> accepted) {
    if (vm.count("output") == 0U) {
        return std::nullopt;
    }
    const std::string path = vm["output"].as<std::string>();
    (void)run::output_format("--output", path, accepted);
    return path;
}

RowsRun::RowsRun(Group& world,
                 std::int64_t width,
                 std::int64_t height,
                 SweepLayout layout,
                 std::optional<std::string> output,
                 bool output_line)
    : world_(world),
      width_(width),
      height_(height),
      layout_(layout),
      output_(std::move(output)),
      output_line_(output_line) {}

std::vector<std::string> RowsRun::text_after() const {
    std::vector<std::string> lines{"unreachable pixels: " + std::to_string(unreachable_)};
    if (output_line_ && output_) {
        lines.push_back("output:    " + *output_);
    }
    return lines;
}

nlohmann::json RowsRun::json_fields(const std::string& algorithm) const {
    return {{"algorithm", algorithm},
            {"P", world_.size()},
            {"width", width_},
            {"height", height_},
            {"r", layout_.r},
            {"unreachable", unreachable_},
            {"output", output_ ? nlohmann::json(*output_) : nlohmann::json(nullptr)}};
}

}  // namespace llc::cards::rows
