#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <llc/error.hpp>
#include <llc/tools/card.hpp>

namespace llc::tools {
namespace {

/// The makers registered before main(); a function-local static, so that registration does not depend on the order
/// in which the translation units' statics are initialised.
std::vector<Card (*)()>& makers() {
    static std::vector<Card (*)()> all;
    return all;
}

/// @throws llc::Error when `name` was seen before under `what`.
void unique(std::set<std::string>& seen, const std::string& what, const std::string& name, const std::string& card) {
    if (!seen.insert(name).second) {
        throw Error("llc tools: " + what + " '" + name + "' of card '" + card + "' is registered twice");
    }
}

std::vector<Card> make_cards() {
    std::vector<Card> all;
    for (auto* make : makers()) {
        all.push_back(make());
    }
    // The llc layer's cards keep the order llc/card registers them in (the layer's own order: collectives, then the
    // broadcasts built beside them, then divisions), which a sort by name would not give; the algorithms go by name.
    std::stable_sort(all.begin(), all.end(), [](const Card& a, const Card& b) {
        return a.layer != b.layer ? a.layer < b.layer : a.layer == CardLayer::algorithm && a.name < b.name;
    });
    std::set<std::string> names;
    std::set<std::string> commands;
    std::set<std::string> cases;
    std::set<std::string> comparisons;
    std::set<std::string> probes;
    for (const Card& card : all) {
        unique(names, "card", card.name, card.name);
        if (card.comparisons.empty() && card.no_peer.empty()) {
            throw Error("llc tools: card '" + card.name + "' has no comparison and says no reason (Card::no_peer)");
        }
        for (const auto& c : card.commands) {
            unique(commands, "llc-run command", c.name, card.name);
        }
        for (const auto& c : card.cases) {
            unique(cases, "validation case", c.algorithm, card.name);
        }
        for (const auto& c : card.comparisons) {
            unique(comparisons, "comparison", c.name, card.name);
        }
        for (const auto& p : card.probes) {
            unique(probes, "kernel probe", p.name, card.name);
        }
    }
    return all;
}

template <class T, class Field>
std::vector<T> gather(Field field) {
    std::vector<T> out;
    for (const Card& card : cards()) {
        const auto& items = card.*field;
        out.insert(out.end(), items.begin(), items.end());
    }
    return out;
}

}  // namespace

bool register_card(Card (*make)()) {
    makers().push_back(make);
    return true;
}

const std::vector<Card>& cards() {
    static const std::vector<Card> all = make_cards();
    return all;
}

const std::vector<run::RunCommand>& all_commands() {
    static const std::vector<run::RunCommand> all = gather<run::RunCommand>(&Card::commands);
    return all;
}

const std::vector<validate::Case>& all_cases() {
    static const std::vector<validate::Case> all = gather<validate::Case>(&Card::cases);
    return all;
}

const std::vector<compare::Comparison>& all_comparisons() {
    static const std::vector<compare::Comparison> all = gather<compare::Comparison>(&Card::comparisons);
    return all;
}

const std::vector<cost::KernelProbe>& all_probes() {
    static const std::vector<cost::KernelProbe> all = gather<cost::KernelProbe>(&Card::probes);
    return all;
}

}  // namespace llc::tools
