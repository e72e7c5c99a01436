#pragma once
// Internal: JSON helpers shared by the cost layer's sources (nlohmann-json stays out of the public headers). Generic:
// they know no type of the cost layer (Piecewise's JSON is in piecewise_json.hpp).

#include <cmath>
#include <string_view>

#include <nlohmann/json.hpp>

namespace llc::cost::detail {

using Json = nlohmann::json;

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
