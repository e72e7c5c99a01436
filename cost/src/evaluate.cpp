// Evaluating a cost expression under a model: the breakdown of its predicted time (compute, communication and
// division overhead along the critical path) and the breakdown's text and JSON.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <llc/cost/expr.hpp>
#include <llc/cost/model.hpp>

#include "json_util.hpp"

namespace llc::cost {

namespace {

Breakdown eval(const Expr& e, const Model& model) {
    Breakdown b;
    b.label = e.label();
    b.kind = e.kind();
    b.op = e.op();
    b.P = e.processors();
    b.bytes = e.bytes();
    switch (e.kind()) {
        case ExprKind::normal: {
            const Price price = model.collective(e.op(), e.processors(), e.bytes());
            // Work that overlaps the collective hides as much of it: only the rest is exposed communication.
            b.compute = e.work() + e.overlap();
            b.comm = std::max(0.0, price.seconds - e.overlap());
            b.extrapolated = price.extrapolated;
            break;
        }
        case ExprKind::compute:
            b.compute = e.work();
            break;
        case ExprKind::sequence:
            for (const Expr& item : e.children()) {
                b.children.push_back(eval(item, model));
                const Breakdown& c = b.children.back();
                b.compute += c.compute;
                b.comm += c.comm;
                b.division += c.division;
                b.extrapolated = b.extrapolated || c.extrapolated;
            }
            break;
        case ExprKind::division: {
            const DivisionLookup d = model.division(e.processors(), e.sizes(), e.bytes());
            b.split = d.split;
            b.exchange = d.exchange;
            b.rejoin = d.rejoin;
            b.extrapolated = d.extrapolated;
            for (const Expr& task : e.children()) {
                b.children.push_back(eval(task, model));
                b.extrapolated = b.extrapolated || b.children.back().extrapolated;
            }
            // The critical path: the slowest task, or (P < r) the processor with the most work.
            Breakdown critical;
            if (e.owners().empty()) {
                for (std::size_t t = 0; t < b.children.size(); ++t) {
                    const Breakdown& c = b.children[t];
                    if (b.critical < 0 || c.compute + c.comm + c.division > critical.total) {
                        b.critical = static_cast<int>(t);
                        critical.compute = c.compute;
                        critical.comm = c.comm;
                        critical.division = c.division;
                        critical.total = c.compute + c.comm + c.division;
                    }
                }
            } else {
                std::vector<Breakdown> per(static_cast<std::size_t>(e.processors()));
                for (std::size_t t = 0; t < b.children.size(); ++t) {
                    Breakdown& q = per[static_cast<std::size_t>(e.owners()[t])];
                    q.compute += b.children[t].compute;
                    q.comm += b.children[t].comm;
                    q.division += b.children[t].division;
                    q.total = q.compute + q.comm + q.division;
                }
                for (std::size_t q = 0; q < per.size(); ++q) {
                    if (b.critical < 0 || per[q].total > critical.total) {
                        b.critical = static_cast<int>(q);
                        critical = per[q];
                    }
                }
            }
            b.compute = critical.compute;
            b.comm = critical.comm;
            b.division = d.total() + critical.division;
            break;
        }
    }
    b.total = b.compute + b.comm + b.division;
    return b;
}

void breakdown_text(const Breakdown& b, int depth, std::string& out) {
    out += std::string(static_cast<std::size_t>(depth) * 2, ' ');
    out += b.label.empty() ? std::string(to_string(b.kind)) : b.label;
    out += "  [" + std::string(to_string(b.kind));
    if (b.kind == ExprKind::normal) {
        out += " " + b.op + " P=" + std::to_string(b.P) + " h=" + format_bytes(b.bytes);
    } else if (b.kind == ExprKind::division) {
        out += " P=" + std::to_string(b.P) + " h=" + format_bytes(b.bytes);
    }
    out += "]  " + format_seconds(b.total) + " = compute " + format_seconds(b.compute) + " + comm " +
           format_seconds(b.comm) + " + division " + format_seconds(b.division);
    if (b.kind == ExprKind::division) {
        out += " (split " + format_seconds(b.split) + ", exchange " + format_seconds(b.exchange) + ", rejoin " +
               format_seconds(b.rejoin) + "; critical " + std::to_string(b.critical) + ")";
    }
    if (b.extrapolated) {
        out += "  (extrapolated)";
    }
    out += '\n';
    for (const Breakdown& c : b.children) {
        breakdown_text(c, depth + 1, out);
    }
}

detail::Json breakdown_json(const Breakdown& b) {
    detail::Json j{{"label", b.label},
                   {"kind", std::string(to_string(b.kind))},
                   {"op", b.op},
                   {"P", b.P},
                   {"bytes", b.bytes},
                   {"compute", b.compute},
                   {"comm", b.comm},
                   {"division", b.division},
                   {"total", b.total},
                   {"extrapolated", b.extrapolated}};
    if (b.kind == ExprKind::division) {
        j["split"] = b.split;
        j["exchange"] = b.exchange;
        j["rejoin"] = b.rejoin;
        j["critical"] = b.critical;
    }
    if (!b.children.empty()) {
        detail::Json children = detail::Json::array();
        for (const Breakdown& c : b.children) {
            children.push_back(breakdown_json(c));
        }
        j["children"] = children;
    }
    return j;
}

}  // namespace

Breakdown evaluate(const Expr& expr, const Model& model) {
    return eval(expr, model);
}

double predict(const Expr& expr, const Model& model) {
    return eval(expr, model).total;
}

std::string Breakdown::to_text() const {
    std::string out;
    breakdown_text(*this, 0, out);
    return out;
}

std::string Breakdown::to_json() const {
    return breakdown_json(*this).dump();
}

}  // namespace llc::cost
