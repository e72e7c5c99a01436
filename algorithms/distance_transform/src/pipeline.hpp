#pragma once
// The ring machinery of a pipelined sweep (article [2] §3), for any pixel value: run the schedule of sweep.hpp, each
// step one Group::shift that carries the segment of the last `reach` pass rows of the block just computed to the
// processor of the next block, which keeps them as that block's halo until it is done. What a segment computes is
// the caller's (the chamfer passes, the path-planning sweeps).

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include <llc/group.hpp>
#include <llc/trace.hpp>

#include "sweep.hpp"

namespace llc::detail::sweep {

/// `row_of(b, y)`: the local physical row y of block b (held here). The callables are template parameters, not
/// std::function: they run for every row of every segment, and the calls showed at P = 2.
template <class Value, class RowOf>
class Pipeline {
  public:
    /// `fill`: what a halo pixel holds before its value arrives (never read by a correct schedule).
    Pipeline(Group& group, const Geometry& geometry, RowOf row_of, Value fill)
        : group_(group), g_(geometry), row_of_(std::move(row_of)), fill_(fill) {}

    /// Runs one pass: `segment(block, pass_row, x0, x1, above)` computes segment [x0, x1) (pass columns) of pass row y
    /// of block b from `above` (std::span<const Value* const>: pass rows y − 1 … y − reach, null outside the image);
    /// the rows of a block come in pass order, each segment after the one to its left. `unit_done` (optional) is
    /// called after each unit this processor computes.
    template <class SegmentFn>
    void run(const SegmentFn& segment, const char* label, const std::function<void(const Unit&)>& unit_done = {}) {
        const Schedule schedule = make_schedule(g_);
        const int me = group_.rank();
        const int direction = g_.backward ? -1 : 1;  // the next block of the pass is on the next processor that way
        const int source = (me - direction + g_.P) % g_.P;
        const Label name(label);
        std::vector<Value> send;
        std::vector<Value> recv;
        for (const std::vector<Unit>& step : schedule.steps) {
            const Unit mine = step[static_cast<std::size_t>(me)];
            send.clear();
            if (mine.block >= 0) {
                compute(mine, segment);
                if (unit_done) {
                    unit_done(mine);
                }
                pack(mine, send);  // may read the block's halo: a block with fewer rows than `reach` passes it on
                if (mine.segment == g_.last_segment(mine.block)) {
                    halos_.erase(mine.block);  // the block is done
                }
            }
            if (g_.P == 1) {
                continue;  // nothing to pass on
            }
            const Unit theirs = step[static_cast<std::size_t>(source)];
            recv.resize(static_cast<std::size_t>(halo_pixels(g_, theirs)));
            group_.shift(std::span<const Value>(send), std::span<Value>(recv), direction);
            if (!recv.empty()) {
                unpack(theirs, recv);
            }
        }
    }

    [[nodiscard]] std::int64_t physical_row(std::int64_t pass_row) const {
        return g_.backward ? g_.height - 1 - pass_row : pass_row;
    }
    [[nodiscard]] std::int64_t physical_column(std::int64_t pass_column) const {
        return g_.backward ? g_.width - 1 - pass_column : pass_column;
    }

  private:
    /// Segment s of pass row y as physical columns: the first and how many. Pass columns [lo, hi) are the physical
    /// columns [lo, hi) forward and [width − hi, width − lo) backward: one contiguous run either way, which a halo
    /// carries in physical order (pack and unpack agree), copied whole. Packed and unpacked a pixel at a time through
    /// physical_column, a step's halo took 0.7–1.8 µs at 1024 columns and 1–31 µs at 4096 (segments of 512, reach 1
    /// and 2, medians of 41, a loaded machine); copied a row at a time 0.03–0.09 µs.
    [[nodiscard]] std::pair<std::int64_t, std::int64_t> physical_run(std::int64_t s, std::int64_t y) const {
        const std::int64_t lo = g_.segment_lo(s, y);
        const std::int64_t hi = g_.segment_hi(s, y);
        if (lo >= hi) {
            return {0, 0};
        }
        return {g_.backward ? g_.width - hi : lo, hi - lo};
    }

    [[nodiscard]] bool last_of_pass(std::int64_t b) const { return g_.block_of_pass(g_.blocks() - 1) == b; }
    [[nodiscard]] std::int64_t next_of_pass(std::int64_t b) const { return g_.backward ? b - 1 : b + 1; }

    /// Pass row y of block b's neighbourhood: held here (in b), in b's halo (rows before b in the pass), or outside.
    const Value* row_for(std::int64_t b, std::int64_t y) {
        if (y < 0) {
            return nullptr;
        }
        if (y >= g_.first_pass_row(b)) {
            return row_of_(b, physical_row(y));
        }
        return halo_of(b).data() + (g_.first_pass_row(b) - y - 1) * g_.width;
    }

    std::vector<Value>& halo_of(std::int64_t b) {
        auto [it, fresh] = halos_.try_emplace(b);
        if (fresh) {
            it->second.assign(static_cast<std::size_t>(g_.reach * g_.width), fill_);
        }
        return it->second;
    }

    template <class SegmentFn>
    void compute(const Unit& u, const SegmentFn& segment) {
        std::vector<const Value*> above(static_cast<std::size_t>(g_.reach));
        for (std::int64_t y = g_.first_pass_row(u.block); y <= g_.last_pass_row(u.block); ++y) {
            const std::int64_t x0 = g_.segment_lo(u.segment, y);
            const std::int64_t x1 = g_.segment_hi(u.segment, y);
            if (x0 >= x1) {
                continue;
            }
            for (int i = 0; i < g_.reach; ++i) {
                above[static_cast<std::size_t>(i)] = row_for(u.block, y - 1 - i);
            }
            segment(u.block, y, x0, x1, std::span<const Value* const>(above));
        }
    }

    /// Segment u.segment of the `reach` pass rows that end at block u.block, for the next block of the pass.
    void pack(const Unit& u, std::vector<Value>& out) {
        if (g_.P == 1 || last_of_pass(u.block)) {
            return;
        }
        const std::int64_t last = g_.last_pass_row(u.block);
        for (std::int64_t y = std::max<std::int64_t>(0, last - g_.reach + 1); y <= last; ++y) {
            const Value* row = y >= g_.first_pass_row(u.block)
                                   ? row_of_(u.block, physical_row(y))
                                   : halo_of(u.block).data() + (g_.first_pass_row(u.block) - y - 1) * g_.width;
            const auto [from, count] = physical_run(u.segment, y);
            out.insert(out.end(), row + from, row + from + count);
        }
    }

    void unpack(const Unit& theirs, const std::vector<Value>& in) {
        const std::int64_t b = next_of_pass(theirs.block);
        std::vector<Value>& halo = halo_of(b);
        const std::int64_t first = g_.first_pass_row(b);
        const std::int64_t last = g_.last_pass_row(theirs.block);
        std::size_t at = 0;
        for (std::int64_t y = std::max<std::int64_t>(0, last - g_.reach + 1); y <= last; ++y) {
            Value* row = halo.data() + (first - y - 1) * g_.width;
            const auto [from, count] = physical_run(theirs.segment, y);
            std::copy_n(in.begin() + static_cast<std::ptrdiff_t>(at), count, row + from);
            at += static_cast<std::size_t>(count);
        }
    }

    Group& group_;
    const Geometry& g_;
    RowOf row_of_;
    Value fill_;
    std::map<std::int64_t, std::vector<Value>> halos_;
};

/// Where each of this processor's blocks starts in its local arrays (its rows in increasing order): block b = rank +
/// i·P is its i-th, after i full blocks of r rows (only the image's last block can be shorter). A closed form, not a
/// lookup: the passes ask for every row of every segment.
struct BlockOffsets {
    std::int64_t rank = 0;
    std::int64_t P = 1;
    std::int64_t block_values = 0;  ///< r · width

    [[nodiscard]] std::int64_t operator()(std::int64_t b) const { return (b - rank) / P * block_values; }
};

inline BlockOffsets block_offsets(const Geometry& g, int rank) {
    return {rank, g.P, g.r * g.width};
}

}  // namespace llc::detail::sweep
