// distance_transform and path_planning on DistributedImage: the metric's transform on the part's spans.
#include <array>
#include <string>
#include <utility>

#include <llc/agreement.hpp>
#include <llc/algorithms/distance_transform.hpp>
#include <llc/error.hpp>

namespace llc {

namespace {

constexpr std::array<std::pair<Metric, std::string_view>, 5> metric_names{{{Metric::d4, "d4"},
                                                                           {Metric::d8, "d8"},
                                                                           {Metric::chamfer34, "chamfer34"},
                                                                           {Metric::chamfer5711, "chamfer5711"},
                                                                           {Metric::euclidean, "euclidean"}}};

/// The message when `part` is not this rank's part of a layout of g, else "".
template <class T>
std::string part_problem(const Group& g, const char* function, const char* argument, const DistributedImage<T>& part) {
    if (part.layout.P != g.size() || part.rank != g.rank()) {
        return argument_message(
            function,
            std::string(argument) + ".layout.P / " + argument + ".rank",
            std::to_string(part.layout.P) + " / " + std::to_string(part.rank),
            "must be this group's size / rank " + std::to_string(g.size()) + " / " + std::to_string(g.rank()));
    }
    return {};
}

/// Throws on every rank (the verdict joins an agreement check) unless `part` is this rank's part of a layout of g.
template <class T>
void check_part_of_group(Group& g, const char* function, const char* argument, const DistributedImage<T>& part) {
    g.check_same(function, {}, part_problem(g, function, argument, part));
}

}  // namespace

std::string_view metric_name(Metric metric) noexcept {
    for (const auto& [m, name] : metric_names) {
        if (m == metric) {
            return name;
        }
    }
    return "unknown";
}

Metric parse_metric(std::string_view name, const char* function) {
    for (const auto& [m, known] : metric_names) {
        if (known == name) {
            return m;
        }
    }
    throw_argument_error(function, "metric", name, "must be one of d4, d8, chamfer34, chamfer5711, euclidean");
}

ChamferMask chamfer_mask(Metric metric) {
    switch (metric) {
        case Metric::d4:
            return ChamferMask::d4();
        case Metric::d8:
            return ChamferMask::d8();
        case Metric::chamfer34:
            return ChamferMask::chamfer34();
        case Metric::chamfer5711:
            return ChamferMask::chamfer5711();
        case Metric::euclidean:
            break;
    }
    throw_argument_error("llc::chamfer_mask", "metric", metric_name(metric), "is not a chamfer metric");
}

DistributedImage<std::int32_t> distance_transform(Group& g,
                                                  const DistributedImage<std::uint8_t>& image,
                                                  const ChamferMask& mask,
                                                  std::int64_t k,
                                                  const cost::Profile* profile) {
    check_part_of_group(g, "llc::distance_transform", "image", image);
    DistributedImage<std::int32_t> out{image.layout, image.rank, std::vector<std::int32_t>(image.rows.size())};
    chamfer_distance_transform(
        g, image.layout.width, image.layout.height, image.layout.r, image.rows, mask, out.rows, k, profile);
    return out;
}

DistributedImage<std::int32_t> distance_transform(Group& g,
                                                  const DistributedImage<std::uint8_t>& image,
                                                  Metric metric,
                                                  std::int64_t k,
                                                  const cost::Profile* profile) {
    // The metric first: the chamfer and the Euclidean transforms move different data, so ranks that disagree on it
    // must learn it before either starts.
    Agreement(g, "llc::distance_transform")
        .same("metric", static_cast<long long>(metric), metric_name(metric))
        .error(part_problem(g, "llc::distance_transform", "image", image))
        .check();
    if (metric != Metric::euclidean) {
        return distance_transform(g, image, chamfer_mask(metric), k, profile);
    }
    DistributedImage<std::int32_t> out{image.layout, image.rank, std::vector<std::int32_t>(image.rows.size())};
    euclidean_distance_transform(g, image.layout.width, image.layout.height, image.layout.r, image.rows, out.rows);
    return out;
}

PlannedPaths path_planning(Group& g,
                           const DistributedImage<double>& costs,
                           std::span<const Pixel> sources,
                           std::int64_t k) {
    check_part_of_group(g, "llc::path_planning", "costs", costs);
    PlannedPaths planned{{costs.layout, costs.rank, std::vector<double>(costs.rows.size())}, {}};
    planned.report = path_planning(
        g, costs.layout.width, costs.layout.height, costs.layout.r, costs.rows, sources, planned.cost.rows, k);
    return planned;
}

namespace cost {

Expr distance_transform(int P,
                        std::int64_t width,
                        std::int64_t height,
                        std::int64_t r,
                        std::int64_t k,
                        Metric metric,
                        const Profile& profile) {
    if (metric == Metric::euclidean) {
        return euclidean_distance_transform(P, width, height, r, profile);
    }
    return chamfer_distance_transform(P, width, height, r, k, chamfer_mask(metric), profile);
}

}  // namespace cost

}  // namespace llc
