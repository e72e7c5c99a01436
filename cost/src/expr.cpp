#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include <llc/cost/expr.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/error.hpp>
#include <llc/partners.hpp>

#include "json_util.hpp"

namespace llc::cost {

struct Expr::Node {
    ExprKind kind = ExprKind::sequence;
    std::string label;
    double W = 0.0;
    double V = 0.0;  ///< work overlapping the collective (overlapped normal supersteps)
    std::string op;
    int P = 0;
    double bytes = 0.0;
    std::vector<int> sizes;
    std::vector<int> owners;
    std::vector<Expr> children;
};

namespace {

using llc::detail::format_value;  // the shortest text that reads back as the same double

void check_seconds(const char* function, const char* argument, double x) {
    if (!std::isfinite(x) || x < 0.0) {
        throw_argument_error(function, argument, format_value(x), "must be finite and >= 0");
    }
}

std::string join(const std::vector<int>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i > 0) {
            out += ',';
        }
        out += std::to_string(v[i]);
    }
    return out;
}

// Every normal / division node that a task runs directly (through sequences) must run on the task's processors.
void check_task_processors(const char* function, const Expr& task, int t, int expected) {
    if ((task.kind() == ExprKind::normal || task.kind() == ExprKind::division) && task.processors() != expected) {
        throw_argument_error(function,
                             "tasks[" + std::to_string(t) + "] ('" + task.label() + "').P",
                             std::to_string(task.processors()),
                             "task " + std::to_string(t) + " runs on " + std::to_string(expected) + " processor(s)");
    }
    if (task.kind() == ExprKind::sequence) {
        for (const Expr& item : task.children()) {
            check_task_processors(function, item, t, expected);
        }
    }
}

}  // namespace

std::string_view to_string(ExprKind kind) {
    switch (kind) {
        case ExprKind::normal:
            return "normal";
        case ExprKind::division:
            return "division";
        case ExprKind::sequence:
            return "sequence";
        case ExprKind::compute:
            return "compute";
    }
    return "?";
}

Expr::Expr(std::shared_ptr<const Node> node) : node_(std::move(node)) {}

Expr Expr::normal(std::string label, double W, std::string f, int P, double bytes) {
    constexpr const char* function = "llc::cost::Expr::normal";
    check_seconds(function, "W", W);
    check_seconds(function, "bytes", bytes);
    if (P < 1) {
        throw_argument_error(function, "P", std::to_string(P), "must be >= 1");
    }
    if (f.empty()) {
        throw_argument_error(function, "f", "\"\"", "must name a collective");
    }
    auto node = std::make_shared<Node>();
    node->kind = ExprKind::normal;
    node->label = std::move(label);
    node->W = W;
    node->op = std::move(f);
    node->P = P;
    node->bytes = bytes;
    return Expr(std::move(node));
}

Expr Expr::overlapped(std::string label, double W, double V, std::string f, int P, double bytes) {
    check_seconds("llc::cost::Expr::overlapped", "V", V);
    Expr e = normal(std::move(label), W, std::move(f), P, bytes);
    auto node = std::make_shared<Node>(*e.node_);
    node->V = V;
    return Expr(std::move(node));
}

Expr Expr::compute(std::string label, double W) {
    check_seconds("llc::cost::Expr::compute", "W", W);
    auto node = std::make_shared<Node>();
    node->kind = ExprKind::compute;
    node->label = std::move(label);
    node->W = W;
    return Expr(std::move(node));
}

Expr Expr::division(std::string label, int P, std::vector<int> sizes, std::vector<Expr> tasks, double bytes) {
    constexpr const char* function = "llc::cost::Expr::division";
    check_seconds(function, "bytes", bytes);
    if (P < 1) {
        throw_argument_error(function, "P", std::to_string(P), "must be >= 1");
    }
    if (sizes.empty()) {
        throw_argument_error(function, "sizes", "{}", "a division has at least one task");
    }
    if (sizes.size() != tasks.size()) {
        throw_argument_error(function,
                             "tasks",
                             std::to_string(tasks.size()) + " tasks",
                             "need one task per size (" + std::to_string(sizes.size()) + ")");
    }
    long long sum = 0;
    bool all_ones = true;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] < 1) {
            throw_argument_error(
                function, "sizes[" + std::to_string(i) + "]", std::to_string(sizes[i]), "must be >= 1");
        }
        sum += sizes[i];
        all_ones = all_ones && sizes[i] == 1;
    }
    std::vector<int> owners;
    const int r = static_cast<int>(sizes.size());
    if (sum != P) {
        if (!(all_ones && r > P)) {
            throw_argument_error(function,
                                 "sizes",
                                 "{" + join(sizes) + "}",
                                 "must add up to P = " + std::to_string(P) + " (or be r ones when P < r)");
        }
        const std::vector<double> equal(sizes.size(), 1.0);
        owners = llc::assign_tasks(P, equal);
    }
    for (int t = 0; t < r; ++t) {
        check_task_processors(function, tasks[static_cast<std::size_t>(t)], t, sizes[static_cast<std::size_t>(t)]);
    }
    auto node = std::make_shared<Node>();
    node->kind = ExprKind::division;
    node->label = std::move(label);
    node->op = names::op::par;
    node->P = P;
    node->bytes = bytes;
    node->sizes = std::move(sizes);
    node->owners = std::move(owners);
    node->children = std::move(tasks);
    return Expr(std::move(node));
}

Expr Expr::weighted_division(
    std::string label, int P, std::span<const double> weights, std::vector<Expr> tasks, double bytes) {
    constexpr const char* function = "llc::cost::Expr::weighted_division";
    if (weights.size() != tasks.size()) {
        throw_argument_error(function,
                             "tasks",
                             std::to_string(tasks.size()) + " tasks",
                             "need one task per weight (" + std::to_string(weights.size()) + ")");
    }
    std::vector<int> sizes = llc::split_sizes(P, weights);  // checks P and the weights
    std::vector<int> owners;
    if (P < static_cast<int>(weights.size())) {
        owners = llc::assign_tasks(P, weights);
    }
    Expr e = division(std::move(label), P, sizes, std::move(tasks), bytes);
    auto node = std::make_shared<Node>(*e.node_);
    node->op = names::op::weighted_par;
    if (!owners.empty()) {
        node->owners = std::move(owners);
    }
    return Expr(std::move(node));
}

Expr Expr::sequence(std::string label, std::vector<Expr> items) {
    auto node = std::make_shared<Node>();
    node->kind = ExprKind::sequence;
    node->label = std::move(label);
    node->children = std::move(items);
    return Expr(std::move(node));
}

ExprKind Expr::kind() const noexcept {
    return node_->kind;
}
const std::string& Expr::label() const noexcept {
    return node_->label;
}
double Expr::work() const noexcept {
    return node_->W;
}
double Expr::overlap() const noexcept {
    return node_->V;
}
const std::string& Expr::op() const noexcept {
    return node_->op;
}
int Expr::processors() const noexcept {
    return node_->P;
}
double Expr::bytes() const noexcept {
    return node_->bytes;
}
const std::vector<int>& Expr::sizes() const noexcept {
    return node_->sizes;
}
const std::vector<int>& Expr::owners() const noexcept {
    return node_->owners;
}
const std::vector<Expr>& Expr::children() const noexcept {
    return node_->children;
}

double Expr::tree_size() const {
    double n = 1.0;
    for (const Expr& child : children()) {
        n += child.tree_size();
    }
    return n;
}

// ---- text and JSON ----------------------------------------------------------------------------------------------

std::string format_seconds(double seconds) {
    char buffer[64];
    const double a = std::abs(seconds);
    if (!std::isfinite(seconds)) {
        return "n/a";
    }
    if (a == 0.0) {
        return "0 s";
    }
    if (a >= 1.0) {
        std::snprintf(buffer, sizeof buffer, "%.3g s", seconds);
    } else if (a >= 1e-3) {
        std::snprintf(buffer, sizeof buffer, "%.3g ms", seconds * 1e3);
    } else if (a >= 1e-6) {
        std::snprintf(buffer, sizeof buffer, "%.3g us", seconds * 1e6);
    } else {
        std::snprintf(buffer, sizeof buffer, "%.3g ns", seconds * 1e9);
    }
    return buffer;
}

std::string format_bytes(double bytes) {
    char buffer[64];
    if (bytes < 1024.0) {
        std::snprintf(buffer, sizeof buffer, "%.0f B", bytes);
    } else if (bytes < 1024.0 * 1024.0) {
        std::snprintf(buffer, sizeof buffer, "%.1f KiB", bytes / 1024.0);
    } else if (bytes < 1024.0 * 1024.0 * 1024.0) {
        std::snprintf(buffer, sizeof buffer, "%.1f MiB", bytes / (1024.0 * 1024.0));
    } else {
        std::snprintf(buffer, sizeof buffer, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    }
    return buffer;
}

namespace {

void expr_text(const Expr& e, int depth, std::string& out) {
    out += std::string(static_cast<std::size_t>(depth) * 2, ' ');
    out += e.label().empty() ? std::string(to_string(e.kind())) : e.label();
    switch (e.kind()) {
        case ExprKind::normal:
            out += "  [normal " + e.op() + " P=" + std::to_string(e.processors()) + " h=" + format_bytes(e.bytes()) +
                   " W=" + format_seconds(e.work());
            if (e.overlap() > 0.0) {
                out += " V=" + format_seconds(e.overlap()) + " (overlapped)";
            }
            out += "]";
            break;
        case ExprKind::compute:
            out += "  [compute W=" + format_seconds(e.work()) + "]";
            break;
        case ExprKind::division:
            out += "  [" + e.op() + " P=" + std::to_string(e.processors()) + " sizes=" + join(e.sizes()) +
                   " h=" + format_bytes(e.bytes()) + "]";
            break;
        case ExprKind::sequence:
            out += "  [sequence]";
            break;
    }
    out += '\n';
    for (std::size_t i = 0; i < e.children().size(); ++i) {
        if (e.kind() == ExprKind::division) {
            out += std::string(static_cast<std::size_t>(depth + 1) * 2, ' ') + "task " + std::to_string(i) + ":\n";
            expr_text(e.children()[i], depth + 2, out);
        } else {
            expr_text(e.children()[i], depth + 1, out);
        }
    }
}

detail::Json expr_json(const Expr& e) {
    detail::Json j{{"kind", std::string(to_string(e.kind()))}, {"label", e.label()}};
    switch (e.kind()) {
        case ExprKind::normal:
            j["W"] = e.work();
            j["f"] = e.op();
            j["P"] = e.processors();
            j["bytes"] = e.bytes();
            if (e.overlap() > 0.0) {
                j["V"] = e.overlap();
            }
            break;
        case ExprKind::compute:
            j["W"] = e.work();
            break;
        case ExprKind::division: {
            j["op"] = e.op();
            j["P"] = e.processors();
            j["sizes"] = e.sizes();
            j["owners"] = e.owners();
            j["bytes"] = e.bytes();
            detail::Json tasks = detail::Json::array();
            for (const Expr& t : e.children()) {
                tasks.push_back(expr_json(t));
            }
            j["tasks"] = tasks;
            break;
        }
        case ExprKind::sequence: {
            detail::Json items = detail::Json::array();
            for (const Expr& t : e.children()) {
                items.push_back(expr_json(t));
            }
            j["items"] = items;
            break;
        }
    }
    return j;
}

}  // namespace

std::string Expr::to_text() const {
    std::string out;
    expr_text(*this, 0, out);
    return out;
}

std::string Expr::to_json() const {
    return expr_json(*this).dump();
}

namespace {

Expr expr_from(const detail::Json& j, const std::string& where) {
    using detail::field;
    using detail::number;
    const detail::Json& kind = field(j, "kind", where);
    const detail::Json& label_j = field(j, "label", where);
    if (!kind.is_string() || !label_j.is_string()) {
        throw Error(where + ": 'kind' and 'label' must be strings");
    }
    const std::string k = kind.get<std::string>();
    std::string label = label_j.get<std::string>();
    const auto integer = [&](const char* key) {
        const detail::Json& v = field(j, key, where);
        if (!v.is_number_integer()) {
            throw Error(where + "." + key + ": expected an integer");
        }
        return v.get<int>();
    };
    if (k == "normal") {
        const detail::Json& f = field(j, "f", where);
        if (!f.is_string()) {
            throw Error(where + ".f: expected a string");
        }
        const double V = j.contains("V") ? number(j.at("V"), where + ".V") : 0.0;
        return Expr::overlapped(std::move(label),
                                number(field(j, "W", where), where + ".W"),
                                V,
                                f.get<std::string>(),
                                integer("P"),
                                number(field(j, "bytes", where), where + ".bytes"));
    }
    if (k == "compute") {
        return Expr::compute(std::move(label), number(field(j, "W", where), where + ".W"));
    }
    const auto children = [&](const char* key) {
        const detail::Json& list = field(j, key, where);
        if (!list.is_array()) {
            throw Error(where + "." + key + ": expected an array");
        }
        std::vector<Expr> out;
        for (std::size_t i = 0; i < list.size(); ++i) {
            out.push_back(expr_from(list[i], where + "." + key + "[" + std::to_string(i) + "]"));
        }
        return out;
    };
    if (k == "sequence") {
        return Expr::sequence(std::move(label), children("items"));
    }
    if (k == "division") {
        const detail::Json& sizes = field(j, "sizes", where);
        if (!sizes.is_array()) {
            throw Error(where + ".sizes: expected an array");
        }
        std::vector<int> s;
        for (const auto& v : sizes) {
            if (!v.is_number_integer()) {
                throw Error(where + ".sizes: expected integers");
            }
            s.push_back(v.get<int>());
        }
        return Expr::division(std::move(label),
                              integer("P"),
                              std::move(s),
                              children("tasks"),
                              number(field(j, "bytes", where), where + ".bytes"));
    }
    throw Error(where + ".kind: unknown kind '" + k + "' (normal, division, sequence, compute)");
}

}  // namespace

Expr Expr::from_json(std::string_view text) {
    detail::Json j;
    try {
        j = detail::Json::parse(text);
    } catch (const detail::Json::exception& e) {
        throw Error(std::string("llc::cost::Expr::from_json: not JSON: ") + e.what());
    }
    try {
        return expr_from(j, "expr");
    } catch (const Error& e) {
        throw Error(std::string("llc::cost::Expr::from_json: ") + e.what());
    }
}

}  // namespace llc::cost
