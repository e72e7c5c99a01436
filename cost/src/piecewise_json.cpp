// Piecewise to and from JSON: the text form of Piecewise::to_json / from_json and the objects a profile holds.
#include "piecewise_json.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <llc/cost/piecewise.hpp>
#include <llc/error.hpp>

#include "json_util.hpp"

namespace llc::cost {

std::string Piecewise::to_json() const {
    return detail::piecewise_to_json(*this).dump();
}

Piecewise Piecewise::from_json(std::string_view text) {
    detail::Json j;
    try {
        j = detail::Json::parse(text);
    } catch (const detail::Json::exception& e) {
        throw Error(std::string("llc::cost::Piecewise::from_json: not JSON: ") + e.what());
    }
    return detail::piecewise_from_json(j, "piecewise");
}

namespace detail {

Json piecewise_to_json(const Piecewise& f) {
    Json segments = Json::array();
    for (const Segment& s : f.segments()) {
        segments.push_back({{"from", s.from}, {"to", s.to}, {"intercept", s.intercept}, {"slope", s.slope}});
    }
    const FitQuality& q = f.quality();
    return Json{{"segments", segments},
                {"quality",
                 {{"samples", q.samples}, {"median_relative", q.median_relative}, {"max_relative", q.max_relative}}}};
}

Piecewise piecewise_from_json(const Json& j, std::string_view where) {
    const std::string w(where);
    const Json& segments = field(j, "segments", w);
    if (!segments.is_array()) {
        throw Error(w + ".segments: expected an array");
    }
    std::vector<Segment> pieces;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const std::string ws = w + ".segments[" + std::to_string(i) + "]";
        const Json& s = segments[i];
        pieces.push_back({number(field(s, "from", ws), ws + ".from"),
                          number(field(s, "to", ws), ws + ".to"),
                          number(field(s, "intercept", ws), ws + ".intercept", false),
                          number(field(s, "slope", ws), ws + ".slope", false)});
    }
    Piecewise f;
    try {
        f = Piecewise(std::move(pieces));
    } catch (const Error& e) {
        throw Error(w + ": " + e.what());
    }
    if (const auto it = j.find("quality"); it != j.end()) {
        const std::string wq = w + ".quality";
        FitQuality q;
        q.samples = static_cast<std::size_t>(number(field(*it, "samples", wq), wq + ".samples"));
        q.median_relative = number(field(*it, "median_relative", wq), wq + ".median_relative");
        q.max_relative = number(field(*it, "max_relative", wq), wq + ".max_relative");
        f.set_quality(q);
    }
    return f;
}

}  // namespace detail

}  // namespace llc::cost
