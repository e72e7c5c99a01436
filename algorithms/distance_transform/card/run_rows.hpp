#pragma once
/// @file
/// What llc-run distance-transform and llc-run path-planning share: both run on an image (or map) in blocks of r rows
/// on a ring, block b on processor b mod P, either read or generated (--input | --n N --seed S), in a layout the
/// options may set (--r, --k); both gather their result to rank 0 in image order, count its unreachable pixels,
/// write it whole or not at all (--output) and report the same fields.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/group.hpp>
#include <llc/tools/card.hpp>
#include <llc/tools/run_command.hpp>

static_assert(std::endian::native == std::endian::little, "llc-run's images and maps are little-endian files");

namespace llc::cards::rows {

/// @throws run::UsageError(message) unless exactly one of --input and --n was given.
void require_one_input(const boost::program_options::variables_map& vm, const std::string& message);

/// --n: the side of a generated n × n image. @throws run::UsageError "--n: N must be at least 1".
[[nodiscard]] std::int64_t generated_side(const boost::program_options::variables_map& vm);

/// --r and --k where given, else `fallback`'s. @throws run::UsageError "--r: R must be at least 1" (or --k).
[[nodiscard]] SweepLayout layout_option(const boost::program_options::variables_map& vm, const SweepLayout& fallback);

/// --output where given, its directory and its extension checked (run::output_format: one of `accepted`, the format
/// written). @throws run::UsageError naming --output.
[[nodiscard]] std::optional<std::string> output_option(const boost::program_options::variables_map& vm,
                                                       std::initializer_list<std::string_view> accepted);

/// `values` as the bytes of a raw little-endian file.
template <class T>
[[nodiscard]] std::span<const char> bytes_of(const std::vector<T>& values) {
    return {reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)};
}

/// A run over an image distributed by rows: its size, layout and output, and after write_result() the count of its
/// unreachable pixels; the report lines and JSON fields both commands give.
class RowsRun : public run::Run {
  public:
    /// "unreachable pixels: N", then "output:    FILE" where the command reports it and --output was given.
    [[nodiscard]] std::vector<std::string> text_after() const override;

  protected:
    RowsRun(Group& world,
            std::int64_t width,
            std::int64_t height,
            SweepLayout layout,
            std::optional<std::string> output,
            bool output_line);

    /// Collective: gathers `result` to rank 0 in image order, counts there the pixels for which `unreachable` holds,
    /// and, with --output, writes the whole with `write(path, whole)` on rank 0 (a failure agreed on: OutputError).
    template <class T, class Unreachable, class Write>
    void write_result(const DistributedImage<T>& result, Unreachable unreachable, Write write) {
        const std::vector<T> whole = gather_rows(world_, result, 0).pixels;
        if (world_.rank() == 0) {
            unreachable_ = static_cast<std::int64_t>(std::count_if(whole.begin(), whole.end(), unreachable));
        }
        if (output_) {
            run::write_on_root(world_, [&] { write(*output_, whole); });
        }
    }

    /// Rank 0: "algorithm", "P", "width", "height", "r", "unreachable", "output".
    [[nodiscard]] nlohmann::json json_fields(const std::string& algorithm) const;

    Group& world_;
    std::int64_t width_;
    std::int64_t height_;
    SweepLayout layout_;
    std::optional<std::string> output_;

  private:
    std::int64_t unreachable_ = 0;
    bool output_line_;
};

}  // namespace llc::cards::rows
