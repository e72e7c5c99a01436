#pragma once
// Internal: JSON helpers shared by the cost layer's sources (nlohmann-json stays out of the public headers).

#include <cmath>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <llc/cost/piecewise.hpp>
#include <llc/error.hpp>

namespace llc::cost::detail {

using Json = nlohmann::json;

[[nodiscard]] Json piecewise_to_json(const Piecewise& f);
/// `where` names the field in error messages ("collectives.bcast.P=4").
[[nodiscard]] Piecewise piecewise_from_json(const Json& j, std::string_view where);

/// The member `key` of object `j`, or an llc::Error "<where>: missing field '<key>'" (plus `hint`).
[[nodiscard]] const Json& field(const Json& j,
                                std::string_view key,
                                std::string_view where,
                                std::string_view hint = "");
/// A finite number at `j` (≥ 0 if `non_negative`), else llc::Error naming `where`.
[[nodiscard]] double number(const Json& j,
                            std::string_view where,
                            bool non_negative = true,
                            std::string_view hint = "");

/// A JSON number that survives infinity (written as a large finite value).
[[nodiscard]] inline double finite_or_max(double x) {
    return std::isfinite(x) ? x : (x > 0 ? 1.0e300 : -1.0e300);
}

}  // namespace llc::cost::detail
