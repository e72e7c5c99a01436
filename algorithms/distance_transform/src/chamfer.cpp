// Chamfer distance transforms on row blocks, pipelined along the ring (article [2]): the masks, the driver that runs
// the schedule of sweep.hpp with one Group::shift a step, and the choice of the segment length k.
#include <algorithm>
#include <deque>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <llc/agreement.hpp>
#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/distance_transform_names.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/error.hpp>
#include <llc/trace.hpp>

#include "pipeline.hpp"
#include "sweep.hpp"

namespace llc {

namespace {

constexpr const char* function = "llc::chamfer_distance_transform";

using detail::sweep::Geometry;
using detail::sweep::Unit;
using detail::sweep::unreached;

}  // namespace

// ---- Masks ----------------------------------------------------------------------------------------------------------

ChamferMask::ChamferMask(std::vector<Step> forward, std::string name)
    : forward_(std::move(forward)), name_(std::move(name)) {
    reach_ = 1;
    lead_ = 0;
    for (const Step& s : forward_) {
        if (s.dy == 0) {
            in_row_.push_back(s);
            continue;
        }
        reach_ = std::max(reach_, -s.dy);
        lead_ = std::max(lead_, (s.dx + (-s.dy) - 1) / (-s.dy));  // ⌈dx / −dy⌉ for dx > 0; ≤ 0 otherwise
    }
}

ChamferMask ChamferMask::d4() {
    return ChamferMask({{0, -1, 1}, {-1, 0, 1}}, "d4");
}

ChamferMask ChamferMask::d8() {
    return ChamferMask({{0, -1, 1}, {-1, -1, 1}, {-1, 0, 1}, {-1, 1, 1}}, "d8");
}

ChamferMask ChamferMask::chamfer34() {
    return ChamferMask({{0, -1, 3}, {-1, -1, 4}, {-1, 0, 3}, {-1, 1, 4}}, "chamfer34");
}

ChamferMask ChamferMask::chamfer5711() {
    return ChamferMask(
        {{0, -1, 5}, {-1, -2, 11}, {-1, -1, 7}, {-1, 0, 5}, {-1, 1, 7}, {-1, 2, 11}, {-2, -1, 11}, {-2, 1, 11}},
        "chamfer5711");
}

ChamferMask ChamferMask::custom(std::vector<Step> forward, std::string name) {
    constexpr const char* where = "llc::ChamferMask::custom";
    if (forward.empty()) {
        throw_argument_error(where, "forward", "{}", "must hold at least one step");
    }
    for (std::size_t i = 0; i < forward.size(); ++i) {
        const Step& s = forward[i];
        // (Streams: GCC 12 warns falsely about chains of std::string + here.)
        std::ostringstream arg_text;
        arg_text << "forward[" << i << "]";
        std::ostringstream value_text;
        value_text << "(" << s.dy << ", " << s.dx << ", " << s.weight << ")";
        const std::string arg = arg_text.str();
        const std::string value = value_text.str();
        if (!(s.dy < 0 || (s.dy == 0 && s.dx < 0))) {
            throw_argument_error(where, arg, value, "must be in the forward half: dy < 0, or dy = 0 and dx < 0");
        }
        if (s.dy < -8 || s.dx < -8 || s.dx > 8) {
            throw_argument_error(where, arg, value, "reaches more than 8 pixels");
        }
        if (s.weight <= 0 || s.weight > (1 << 20)) {
            throw_argument_error(where, arg, value, "needs a weight in [1, 2^20]");
        }
        for (std::size_t j = 0; j < i; ++j) {
            if (forward[j].dy == s.dy && forward[j].dx == s.dx) {
                throw_argument_error(where, arg, value, "repeats forward[" + std::to_string(j) + "]");
            }
        }
    }
    return ChamferMask(std::move(forward), std::move(name));
}

SweepLayout sweep_layout(int P, std::int64_t width, std::int64_t height, const ChamferMask& mask) {
    constexpr const char* where = "llc::sweep_layout";
    if (P < 1) {
        throw_argument_error(where, "P", std::to_string(P), "must be at least 1");
    }
    if (width < 1 || height < 1) {
        throw_argument_error(
            where, "width, height", std::to_string(width) + ", " + std::to_string(height), "must be ≥ 1");
    }
    (void)mask;  // the rule holds for every mask here (lead ≤ 2); kept for a rule that would depend on it
    const std::int64_t k = std::min<std::int64_t>(width, 512);
    const std::int64_t r = std::clamp<std::int64_t>(k / 4, 1, (height + P - 1) / P);
    return {r, k};
}

// ---- The transform --------------------------------------------------------------------------------------------------

namespace {

/// Marks where nothing reached (−1) in `row` (physical columns [a, b)): the final distances.
void mark_unreached(std::int32_t* row, std::int64_t a, std::int64_t b) {
    for (std::int64_t x = a; x < b; ++x) {
        row[x] = row[x] >= unreached ? -1 : row[x];
    }
}

/// The segments a unit of a pass may still read to its left: segment s of pass row y reads the rows before it up to
/// `reach` back, at most `spread` columns left of its own first column, and those rows' segments start `lead` columns
/// further right a row; so unit (b, s) reads nothing of (b, s − m) for m − 1 ≥ (spread + reach · lead) / k.
std::int64_t segments_read_back(const Geometry& g, const ChamferMask& mask) {
    std::int64_t spread = 0;
    for (const ChamferMask::Step& step : mask.forward()) {
        spread = std::max<std::int64_t>(spread, std::abs(step.dx));
    }
    return 1 + (spread + static_cast<std::int64_t>(g.reach) * g.lead + g.k - 1) / g.k;
}

/// One chamfer pass (forward: starts every pixel from the image; backward: continues from the forward distances) on
/// the ring pipeline. The backward pass writes the final distances as it goes, marking where nothing reached (−1)
/// while the pixels are still in cache instead of in a pass of their own: on one processor each row once the rows that
/// read it are done; on several each unit of work once no later unit reads it (its block's later segments read a few
/// columns back, and its halo went to the next processor, copied, when it was done).
void chamfer_pass(Group& group,
                  const Geometry& g,
                  const ChamferMask& mask,
                  std::span<std::int32_t> out,
                  std::span<const std::uint8_t> image) {
    const detail::sweep::BlockOffsets start = detail::sweep::block_offsets(g, group.rank());
    const auto offset = [&](std::int64_t b, std::int64_t y) { return start(b) + (y - b * g.r) * g.width; };
    detail::sweep::Pipeline pipeline(
        group, g, [&](std::int64_t b, std::int64_t y) { return out.data() + offset(b, y); }, unreached);
    const auto row_at = [&](std::int64_t b, std::int64_t pass_row) {
        return out.data() + offset(b, pipeline.physical_row(pass_row));
    };
    const auto finish_unit = [&](const Unit& u) {
        for (std::int64_t y = g.first_pass_row(u.block); y <= g.last_pass_row(u.block); ++y) {
            const std::int64_t x0 = g.segment_lo(u.segment, y);
            const std::int64_t x1 = g.segment_hi(u.segment, y);
            if (x0 < x1) {
                mark_unreached(row_at(u.block, y), g.width - x1, g.width - x0);  // backward: physical columns
            }
        }
    };
    const bool rows_behind = g.P == 1 && g.backward;  // at P = 1 each row is one segment
    const bool units_behind = g.P > 1 && g.backward;
    const std::int64_t read_back = segments_read_back(g, mask);
    std::deque<Unit> unfinished;  // this processor's units of the backward pass not yet marked, in the order run
    pipeline.run(
        [&](std::int64_t b,
            std::int64_t y,
            std::int64_t x0,
            std::int64_t x1,
            std::span<const std::int32_t* const> above) {
            const std::int64_t py = pipeline.physical_row(y);
            if (y + 1 <= g.last_pass_row(b)) {
                detail::sweep::prefetch_segment(
                    out.data() + offset(b, pipeline.physical_row(y + 1)),
                    g.backward ? nullptr : image.data() + offset(b, pipeline.physical_row(y + 1)),
                    g.backward ? g.width - x1 : x0,
                    g.backward ? g.width - x0 : x1);
            }
            detail::sweep::chamfer_segment(std::span(out.data() + offset(b, py), static_cast<std::size_t>(g.width)),
                                           above,
                                           g.backward ? nullptr : image.data() + offset(b, py),
                                           x0,
                                           x1,
                                           mask,
                                           g.backward);
            if (rows_behind && y - mask.reach() >= g.first_pass_row(b)) {
                mark_unreached(row_at(b, y - mask.reach()), 0, g.width);  // row y − reach was the last that read it
            }
        },
        g.backward ? names::distance_transform::backward : names::distance_transform::forward,
        [&](const Unit& u) {
            if (rows_behind) {
                const std::int64_t last = g.last_pass_row(u.block);
                for (std::int64_t y = std::max(g.first_pass_row(u.block), last - mask.reach() + 1); y <= last; ++y) {
                    mark_unreached(row_at(u.block, y), 0, g.width);
                }
            }
            if (units_behind) {
                // Units of blocks done before (their halos sent) and those read_back segments or more behind u.
                while (!unfinished.empty() &&
                       (unfinished.front().block != u.block || unfinished.front().segment <= u.segment - read_back)) {
                    finish_unit(unfinished.front());
                    unfinished.pop_front();
                }
                unfinished.push_back(u);  // not before its halo is sent: the pipeline sends it after this call
            }
        });
    for (const Unit& u : unfinished) {
        finish_unit(u);
    }
}

/// This processor's verdict on its arguments ("" when they are good).
std::string argument_problem(const Group& g,
                             std::int64_t width,
                             std::int64_t height,
                             std::int64_t r,
                             std::int64_t k,
                             const ChamferMask& mask,
                             std::size_t image,
                             std::size_t out) {
    for (const auto& [name, value] : {std::pair{"width", width}, std::pair{"height", height}, std::pair{"r", r}}) {
        if (value < 1) {
            return argument_message(function, name, std::to_string(value), "must be at least 1");
        }
    }
    if (k < 0) {
        return argument_message(function, "k", std::to_string(k), "must be at least 1, or 0 for the model's choice");
    }
    std::int64_t heaviest = 0;
    for (const ChamferMask::Step& s : mask.forward()) {
        heaviest = std::max<std::int64_t>(heaviest, s.weight);
    }
    if (heaviest * (width + height) >= unreached) {
        std::ostringstream size;
        size << width << " × " << height;
        return argument_message(
            function, "width × height", size.str(), "is too large for int32 distances with mask " + mask.name());
    }
    return detail::rows_problem(
        function, g.size(), g.rank(), width, height, r, {"image.size()", image, "out.size()", out});
}

/// A mask step as the agreement check shows it when the masks differ: "(dy, dx) weight w".
std::string step_text(const ChamferMask::Step& s) {
    std::ostringstream text;
    text << '(' << s.dy << ", " << s.dx << ") weight " << s.weight;
    return text.str();
}

}  // namespace

void chamfer_distance_transform(Group& g,
                                std::int64_t width,
                                std::int64_t height,
                                std::int64_t r,
                                std::span<const std::uint8_t> image,
                                const ChamferMask& mask,
                                std::span<std::int32_t> out,
                                std::int64_t k,
                                const cost::Profile* profile) {
    std::string problem = argument_problem(g, width, height, r, k, mask, image.size(), out.size());
    // The segment length the pipeline runs with: k, or the cost model's choice, which must come out the same on every
    // rank (a profile given on some ranks only, or different profiles, would choose different ones: agreed below).
    std::int64_t segment = k;
    if (problem.empty() && k == 0 && g.size() > 1) {
        try {
            segment = profile != nullptr ? cost::best_segment(g.size(), width, height, r, mask, *profile)
                                         : std::max<std::int64_t>(1, (width + 15) / 16);
        } catch (const Error& e) {
            problem = std::string(function) + ": choosing the segment length k: " + e.what();
        }
    }
    Agreement(g, function)
        .same("width", width)
        .same("height", height)
        .same("r", r)
        .same("k", k)
        .same("k (resolved)", segment)
        .same_array("mask", std::span(mask.forward()), step_text)
        .error(problem)
        .check();
    Geometry geometry{.width = width,
                      .height = height,
                      .r = r,
                      .k = segment,
                      .lead = mask.lead(),
                      .reach = mask.reach(),
                      .P = g.size()};
    if (g.size() == 1) {
        // One processor: both passes over the whole image, each row in one segment, nothing to send.
        geometry.r = height;
        geometry.k = width + height * mask.lead();
    }
    for (const bool backward : {false, true}) {
        geometry.backward = backward;
        chamfer_pass(g, geometry, mask, out, image);
    }
}

}  // namespace llc
