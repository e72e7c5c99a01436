// JSON helpers shared by the cost layer's sources: fields and numbers read with errors that name where they are.
#include "json_util.hpp"

#include <cmath>
#include <string>
#include <string_view>

#include <llc/error.hpp>

namespace llc::cost::detail {

const Json& field(const Json& j, std::string_view key, std::string_view where, std::string_view hint) {
    if (!j.is_object()) {
        throw Error(std::string(where) + ": expected a JSON object" + (hint.empty() ? "" : "; ") + std::string(hint));
    }
    const auto it = j.find(std::string(key));
    if (it == j.end()) {
        throw Error(std::string(where) + ": missing field '" + std::string(key) + "'" +
                    (hint.empty() ? "" : "; " + std::string(hint)));
    }
    return *it;
}

double number(const Json& j, std::string_view where, bool non_negative, std::string_view hint) {
    if (!j.is_number()) {
        throw Error(std::string(where) + ": expected a number, got " + j.dump() +
                    (hint.empty() ? "" : "; " + std::string(hint)));
    }
    const double x = j.get<double>();
    if (!std::isfinite(x) || (non_negative && x < 0.0)) {
        throw Error(std::string(where) + ": value " + j.dump() + " is " + (non_negative ? "negative or " : "") +
                    "not finite" + (hint.empty() ? "" : "; " + std::string(hint)));
    }
    return x;
}

}  // namespace llc::cost::detail
