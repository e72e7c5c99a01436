#pragma once
// Internal: Piecewise as a JSON object (the form Piecewise::to_json writes and a profile's fits take).

#include <string_view>

#include <llc/cost/piecewise.hpp>

#include "json_util.hpp"

namespace llc::cost::detail {

[[nodiscard]] Json piecewise_to_json(const Piecewise& f);
/// `where` names the field in error messages ("collectives.bcast.P=4").
[[nodiscard]] Piecewise piecewise_from_json(const Json& j, std::string_view where);

}  // namespace llc::cost::detail
