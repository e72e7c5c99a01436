// Links against the installed llc::cost alone: builds a cost expression and reads it back from its JSON (the JSON
// library is compiled into llc::cost). Prints "consumer ok" when the round trip keeps the tree.
#include <cstdio>

#include <llc/cost/expr.hpp>

int main() {
    using llc::cost::Expr;
    const Expr expr =
        Expr::sequence("run", {Expr::compute("local", 0.25), Expr::normal("sum", 0.5, "allreduce", 4, 8)});
    const Expr back = Expr::from_json(expr.to_json());
    if (back.children().size() != 2 || back.children()[1].op() != "allreduce" || back.to_json() != expr.to_json()) {
        std::fprintf(stderr, "consumer: the expression did not survive its JSON: %s\n", back.to_json().c_str());
        return 1;
    }
    std::printf("consumer ok: llc::cost\n");
    return 0;
}
