// Chamfer distance transforms on row blocks, pipelined along the ring (article [2]): the masks, the driver that runs
// the schedule of sweep.hpp with one Group::shift a step, and the choice of the segment length k.
#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/error.hpp>
#include <llc/trace.hpp>

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

/// The rows this processor holds: for each of its blocks, where its rows start in the local arrays.
class LocalRows {
  public:
    LocalRows(const Geometry& g, int rank, std::span<std::int32_t> out, std::span<const std::uint8_t> image)
        : g_(g), out_(out), image_(image) {
        std::int64_t offset = 0;
        for (std::int64_t b = rank; b < g.blocks(); b += g.P) {
            start_[b] = offset;
            offset += (std::min(g.height, (b + 1) * g.r) - b * g.r) * g.width;
        }
    }
    /// Physical row y (of block b, held here).
    [[nodiscard]] std::int32_t* out_row(std::int64_t b, std::int64_t y) const {
        return out_.data() + start_.at(b) + (y - b * g_.r) * g_.width;
    }
    [[nodiscard]] const std::uint8_t* image_row(std::int64_t b, std::int64_t y) const {
        return image_.data() + start_.at(b) + (y - b * g_.r) * g_.width;
    }

  private:
    const Geometry& g_;
    std::span<std::int32_t> out_;
    std::span<const std::uint8_t> image_;
    std::map<std::int64_t, std::int64_t> start_;
};

/// One pass (forward: initialises from the image; backward: continues from the forward pass's distances).
class Pass {
  public:
    Pass(Group& group, const Geometry& g, const ChamferMask& mask, const LocalRows& rows)
        : group_(group), g_(g), mask_(mask), rows_(rows) {}

    void run() {
        const detail::sweep::Schedule schedule = detail::sweep::make_schedule(g_);
        const int me = group_.rank();
        const int direction = g_.backward ? -1 : 1;  // the next block of the pass is on the next processor that way
        const int source = (me - direction + g_.P) % g_.P;
        const Label label(g_.backward ? "dt.backward" : "dt.forward");
        if (g_.P == 1) {  // nothing to pass on: the units one after the other
            for (const std::vector<Unit>& step : schedule.steps) {
                compute(step[0]);
            }
            return;
        }
        std::vector<std::int32_t> send;
        std::vector<std::int32_t> recv;
        for (const std::vector<Unit>& step : schedule.steps) {
            const Unit mine = step[static_cast<std::size_t>(me)];
            send.clear();
            if (mine.block >= 0) {
                compute(mine);
                pack(mine, send);  // may read b's halo: a block with fewer rows than the mask reaches passes it on
                if (mine.segment == g_.last_segment(mine.block)) {
                    halos_.erase(mine.block);  // the block is done
                }
            }
            const Unit theirs = step[static_cast<std::size_t>(source)];
            recv.resize(static_cast<std::size_t>(detail::sweep::halo_pixels(g_, theirs)));
            group_.shift(std::span<const std::int32_t>(send), std::span<std::int32_t>(recv), direction);
            if (!recv.empty()) {
                unpack(theirs, recv);
            }
        }
    }

  private:
    [[nodiscard]] std::int64_t physical_row(std::int64_t pass_row) const {
        return g_.backward ? g_.height - 1 - pass_row : pass_row;
    }
    [[nodiscard]] std::int64_t physical_column(std::int64_t pass_column) const {
        return g_.backward ? g_.width - 1 - pass_column : pass_column;
    }
    [[nodiscard]] bool last_of_pass(std::int64_t b) const { return g_.block_of_pass(g_.blocks() - 1) == b; }
    [[nodiscard]] std::int64_t next_of_pass(std::int64_t b) const { return g_.backward ? b - 1 : b + 1; }

    /// Pass row y of block b's neighbourhood: held here (in b), in b's halo (rows before b in the pass), or outside.
    [[nodiscard]] const std::int32_t* row_for(std::int64_t b, std::int64_t y) {
        if (y < 0) {
            return nullptr;
        }
        if (y >= g_.first_pass_row(b)) {
            return rows_.out_row(b, physical_row(y));
        }
        std::vector<std::int32_t>& halo = halo_of(b);
        return halo.data() + (g_.first_pass_row(b) - y - 1) * g_.width;
    }

    std::vector<std::int32_t>& halo_of(std::int64_t b) {
        auto [it, fresh] = halos_.try_emplace(b);
        if (fresh) {
            it->second.assign(static_cast<std::size_t>(mask_.reach() * g_.width), unreached);
        }
        return it->second;
    }

    void compute(const Unit& u) {
        std::vector<const std::int32_t*> above(static_cast<std::size_t>(mask_.reach()));
        // One processor's backward pass writes the final distances as it goes: a row no later row reads any more is
        // marked where nothing reached it (−1) while it is still in cache, instead of in a pass of its own.
        const bool finish_behind = g_.P == 1 && g_.backward;
        for (std::int64_t y = g_.first_pass_row(u.block); y <= g_.last_pass_row(u.block); ++y) {
            const std::int64_t x0 = g_.segment_lo(u.segment, y);
            const std::int64_t x1 = g_.segment_hi(u.segment, y);
            if (x0 >= x1) {
                continue;  // (never at P = 1, where each row is one segment: finish_behind misses no row)
            }
            for (int i = 0; i < mask_.reach(); ++i) {
                above[static_cast<std::size_t>(i)] = row_for(u.block, y - 1 - i);
            }
            const std::int64_t py = physical_row(y);
            detail::sweep::chamfer_segment(std::span(rows_.out_row(u.block, py), static_cast<std::size_t>(g_.width)),
                                           above,
                                           g_.backward ? nullptr : rows_.image_row(u.block, py),
                                           x0,
                                           x1,
                                           mask_,
                                           g_.backward);
            // Row y − reach was the last row that read it.
            if (finish_behind && y - mask_.reach() >= g_.first_pass_row(u.block)) {
                finish_row(rows_.out_row(u.block, physical_row(y - mask_.reach())));
            }
        }
        if (finish_behind) {
            const std::int64_t last = g_.last_pass_row(u.block);
            for (std::int64_t y = std::max(g_.first_pass_row(u.block), last - mask_.reach() + 1); y <= last; ++y) {
                finish_row(rows_.out_row(u.block, physical_row(y)));
            }
        }
    }

    void finish_row(std::int32_t* row) const {
        for (std::int64_t x = 0; x < g_.width; ++x) {
            row[x] = row[x] >= unreached ? -1 : row[x];
        }
    }

    /// Segment u.segment of the `reach` pass rows that end at block u.block, for the next block of the pass.
    void pack(const Unit& u, std::vector<std::int32_t>& out) {
        if (last_of_pass(u.block)) {
            return;
        }
        const std::int64_t last = g_.last_pass_row(u.block);
        for (std::int64_t y = std::max<std::int64_t>(0, last - mask_.reach() + 1); y <= last; ++y) {
            const std::int32_t* row =
                y >= g_.first_pass_row(u.block) ? rows_.out_row(u.block, physical_row(y)) : kept_halo_row(u.block, y);
            for (std::int64_t x = g_.segment_lo(u.segment, y); x < g_.segment_hi(u.segment, y); ++x) {
                out.push_back(row[physical_column(x)]);
            }
        }
    }

    /// A halo row of block b that it passes on (b has fewer rows than the mask reaches); kept until b is done.
    const std::int32_t* kept_halo_row(std::int64_t b, std::int64_t y) {
        return halo_of(b).data() + (g_.first_pass_row(b) - y - 1) * g_.width;
    }

    void unpack(const Unit& theirs, const std::vector<std::int32_t>& in) {
        const std::int64_t b = next_of_pass(theirs.block);
        std::vector<std::int32_t>& halo = halo_of(b);
        const std::int64_t first = g_.first_pass_row(b);
        const std::int64_t last = g_.last_pass_row(theirs.block);
        std::size_t at = 0;
        for (std::int64_t y = std::max<std::int64_t>(0, last - mask_.reach() + 1); y <= last; ++y) {
            std::int32_t* row = halo.data() + (first - y - 1) * g_.width;
            for (std::int64_t x = g_.segment_lo(theirs.segment, y); x < g_.segment_hi(theirs.segment, y); ++x) {
                row[physical_column(x)] = in[at++];
            }
        }
    }

    Group& group_;
    const Geometry& g_;
    const ChamferMask& mask_;
    const LocalRows& rows_;
    std::map<std::int64_t, std::vector<std::int32_t>> halos_;
};

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
    const auto pixels = static_cast<std::size_t>(block_rows_held(g.size(), g.rank(), height, r) * width);
    if (image != pixels) {
        return argument_message(function,
                                "image.size()",
                                std::to_string(image),
                                "must be this rank's rows × width = " + std::to_string(pixels));
    }
    if (out != pixels) {
        return argument_message(
            function, "out.size()", std::to_string(out), "must equal image.size() = " + std::to_string(pixels));
    }
    return {};
}

/// A fingerprint of the mask, so that ranks can agree they use the same one.
long long mask_fingerprint(const ChamferMask& mask) {
    long long h = 1469598103934665603LL;
    for (const ChamferMask::Step& s : mask.forward()) {
        for (const long long v :
             {static_cast<long long>(s.dy), static_cast<long long>(s.dx), static_cast<long long>(s.weight)}) {
            h = (h ^ v) * 1099511628211LL;
        }
    }
    return h;
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
    const std::string problem = argument_problem(g, width, height, r, k, mask, image.size(), out.size());
    g.check_same(function,
                 {{"width", width}, {"height", height}, {"r", r}, {"k", k}, {"mask", mask_fingerprint(mask)}},
                 problem);
    Geometry geometry{
        .width = width, .height = height, .r = r, .k = k, .lead = mask.lead(), .reach = mask.reach(), .P = g.size()};
    if (g.size() == 1) {
        // One processor: both passes over the whole image, each row in one segment, nothing to send.
        geometry.r = height;
        geometry.k = width + height * mask.lead();
    } else if (k == 0) {
        geometry.k = profile != nullptr ? cost::best_segment(g.size(), width, height, r, mask, *profile)
                                        : std::max<std::int64_t>(1, (width + 15) / 16);
    }
    const LocalRows rows(geometry, g.rank(), out, image);
    for (const bool backward : {false, true}) {
        geometry.backward = backward;
        Pass(g, geometry, mask, rows).run();
    }
    // What no path reached (one processor's backward pass did it already, row by row).
    if (g.size() > 1) {
        for (std::int32_t& d : out) {
            d = d >= unreached ? -1 : d;
        }
    }
}

}  // namespace llc
