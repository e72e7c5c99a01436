// Path planning by red and blue sweeps on the ring pipeline (pipeline.hpp): each pixel carries its path cost f and its
// traversal cost tc, so that a halo row brings both.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include <llc/agreement.hpp>
#include <llc/algorithms/distance_transform_names.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/algorithms/path_planning.hpp>
#include <llc/error.hpp>
#include <llc/trace.hpp>

#include "path_kernels.hpp"
#include "pipeline.hpp"
#include "sweep.hpp"

namespace llc {

namespace {

constexpr const char* path_planning_function = "llc::path_planning";
using detail::sweep::Cell;

std::string pixel_text(std::int64_t row, std::int64_t column) {
    std::ostringstream out;
    out << "(" << row << ", " << column << ")";
    return out.str();
}

/// The verdict of processor `rank` of P on its arguments to `who` ("" when they are good).
std::string argument_problem(const char* who,
                             int P,
                             int rank,
                             std::int64_t width,
                             std::int64_t height,
                             std::int64_t r,
                             std::int64_t k,
                             std::span<const double> costs,
                             std::span<const Pixel> sources,
                             std::size_t out) {
    for (const auto& [name, value] : {std::pair{"width", width}, std::pair{"height", height}, std::pair{"r", r}}) {
        if (value < 1) {
            return argument_message(who, name, std::to_string(value), "must be at least 1");
        }
    }
    if (k < 0) {
        return argument_message(who, "k", std::to_string(k), "must be at least 1, or 0 for path_planning_layout's");
    }
    if (sources.empty()) {
        return argument_message(who, "sources", "{}", "must hold at least one pixel");
    }
    for (std::size_t i = 0; i < sources.size(); ++i) {
        const Pixel s = sources[i];
        if (s.row < 0 || s.row >= height || s.column < 0 || s.column >= width) {
            return argument_message(
                who,
                "sources[" + std::to_string(i) + "]",
                pixel_text(s.row, s.column),
                "is outside the " + std::to_string(height) + " × " + std::to_string(width) + " map");
        }
    }
    const std::string rows =
        detail::rows_problem(who, P, rank, width, height, r, {"costs.size()", costs.size(), "out.size()", out});
    if (!rows.empty()) {
        return rows;
    }
    // A bad cost: name the pixel by its place in the map.
    std::size_t at = 0;
    for (std::int64_t b = rank; b * r < height; b += P) {
        for (std::int64_t y = b * r; y < std::min(height, (b + 1) * r); ++y) {
            for (std::int64_t x = 0; x < width; ++x, ++at) {
                const double c = costs[at];
                if (std::isnan(c) || c < 0.0) {
                    std::ostringstream value;
                    value << c;
                    return argument_message(who,
                                            "costs at pixel " + pixel_text(y, x),
                                            value.str(),
                                            "must be ≥ 0 (or +inf for an obstacle)");
                }
            }
        }
    }
    return {};
}

/// A source as the agreement check shows it when the lists differ.
std::string source_text(const Pixel& s) {
    return pixel_text(s.row, s.column);
}

}  // namespace

SweepLayout path_planning_layout(int P, std::int64_t width, std::int64_t height) {
    constexpr const char* where = "llc::path_planning_layout";
    if (P < 1) {
        throw_argument_error(where, "P", std::to_string(P), "must be at least 1");
    }
    if (width < 1 || height < 1) {
        throw_argument_error(
            where, "width, height", std::to_string(width) + ", " + std::to_string(height), "must be ≥ 1");
    }
    const std::int64_t k = std::min<std::int64_t>(width, 256);
    const std::int64_t r = std::clamp<std::int64_t>(k / 4, 1, (height + P - 1) / P);
    return {r, k};
}

PathPlanningReport path_planning(Group& g,
                                 std::int64_t width,
                                 std::int64_t height,
                                 std::int64_t r,
                                 std::span<const double> costs,
                                 std::span<const Pixel> sources,
                                 std::span<double> out,
                                 std::int64_t k) {
    const std::string problem =
        argument_problem(path_planning_function, g.size(), g.rank(), width, height, r, k, costs, sources, out.size());
    Agreement(g, path_planning_function)
        .same("width", width)
        .same("height", height)
        .same("r", r)
        .same("k", k)
        .same("sources.size()", static_cast<long long>(sources.size()))
        .same_array("sources", sources, source_text)
        .error(problem)
        .check();
    detail::sweep::Geometry geometry{.width = width,
                                     .height = height,
                                     .r = r,
                                     .k = k > 0 ? k : path_planning_layout(g.size(), width, height).k,
                                     .lead = 1,
                                     .reach = 1,
                                     .P = g.size()};
    if (g.size() == 1) {
        geometry.r = height;
        geometry.k = width + height;
    }
    // The cells of this processor's rows: f = 0 on a source, +∞ elsewhere.
    const detail::sweep::BlockOffsets start = detail::sweep::block_offsets(geometry, g.rank());
    const auto offset = [&](std::int64_t b, std::int64_t y) { return start(b) + (y - b * geometry.r) * width; };
    std::vector<Cell> cells(costs.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
        cells[i] = {std::numeric_limits<double>::infinity(), costs[i]};
    }
    for (const Pixel& s : sources) {
        const std::int64_t b = s.row / geometry.r;
        if (b % g.size() == g.rank()) {
            cells[static_cast<std::size_t>(offset(b, s.row) + s.column)].f = 0.0;
        }
    }
    PathPlanningReport report;
    for (bool blue = false;; blue = !blue) {
        geometry.backward = blue;
        detail::sweep::Pipeline pipeline(
            g,
            geometry,
            [&](std::int64_t b, std::int64_t y) { return cells.data() + offset(b, y); },
            Cell{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()});
        bool changed = false;
        pipeline.run(
            [&](std::int64_t b, std::int64_t y, std::int64_t x0, std::int64_t x1, std::span<const Cell* const> above) {
                // The next row's segment, as the chamfer passes do (sweep.hpp), where segments are shorter than rows:
                // whole rows (P = 1) the hardware prefetchers follow, and asking cost 7 % there.
                if (x1 - x0 < width && y + 1 <= geometry.last_pass_row(b)) {
                    detail::sweep::fetch_columns(cells.data() + offset(b, pipeline.physical_row(y + 1)),
                                                 blue ? width - x1 : x0,
                                                 blue ? width - x0 : x1);
                }
                Cell* row = cells.data() + offset(b, pipeline.physical_row(y));
                changed = detail::sweep::path_segment(
                              std::span(row, static_cast<std::size_t>(width)), above[0], x0, x1, blue) ||
                          changed;
            },
            blue ? names::distance_transform::blue : names::distance_transform::red);
        ++report.sweeps;
        // A sweep that changes nothing leaves a state every one of its relaxations keeps; the sweep before it (of the
        // other colour) left one all of its own keep, so both hold and the costs are final. The first red sweep has
        // no sweep before it: unchanged, it proves nothing (a source in the last row's last pixel reaches nothing in
        // it), so the blue sweep always runs.
        const Label label(names::distance_transform::changed);
        if (g.allreduce(changed ? 1 : 0, Op::max) == 0 && report.sweeps >= 2) {
            break;
        }
    }
    for (std::size_t i = 0; i < cells.size(); ++i) {
        out[i] = cells[i].f;
    }
    return report;
}

int path_planning_sweeps(std::int64_t width,
                         std::int64_t height,
                         std::span<const double> costs,
                         std::span<const Pixel> sources) {
    constexpr const char* where = "llc::path_planning_sweeps";
    if (const std::string problem = argument_problem(
            where, 1, 0, width, height, std::max<std::int64_t>(height, 1), 0, costs, sources, costs.size());
        !problem.empty()) {
        throw Error(problem);
    }
    // What path_planning does on one processor: one block, whole rows, red and blue sweeps until a sweep other than
    // the first changes nothing.
    std::vector<Cell> cells(costs.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
        cells[i] = {std::numeric_limits<double>::infinity(), costs[i]};
    }
    for (const Pixel& s : sources) {
        cells[static_cast<std::size_t>(s.row * width + s.column)].f = 0.0;
    }
    const auto row = [&](std::int64_t y) { return cells.data() + y * width; };
    for (int sweeps = 1;; ++sweeps) {
        const bool blue = sweeps % 2 == 0;
        bool changed = false;
        for (std::int64_t i = 0; i < height; ++i) {
            const std::int64_t y = blue ? height - 1 - i : i;
            const Cell* above = i == 0 ? nullptr : row(blue ? y + 1 : y - 1);
            changed = detail::sweep::path_segment(
                          std::span(row(y), static_cast<std::size_t>(width)), above, 0, width, blue) ||
                      changed;
        }
        if (!changed && sweeps >= 2) {
            return sweeps;
        }
    }
}

}  // namespace llc
