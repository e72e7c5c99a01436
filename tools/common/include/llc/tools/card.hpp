#pragma once
/// @file
/// The card of an algorithm (or of a part of the llc layer): the one place that says how the four tools run it.
///
/// A card lives beside the code it describes (`algorithms/<name>/card/`, `llc/card/`) and registers itself with
/// LLC_REGISTER_CARD; tools/cards/CMakeLists.txt finds the card folders, so adding an algorithm touches no tool file.
/// llc-run, llc-validate, llc-compare and llc-probe are generic drivers over cards():
///
/// | card field    | tool         | what the tool does with it                                                  |
/// |---------------|--------------|-----------------------------------------------------------------------------|
/// | `commands`    | llc-run      | `llc-run NAME [options]`: prepare, time, predict, write output, report      |
/// | `cases`       | llc-validate | measure each case × size × p and price it under every model                 |
/// | `comparisons` | llc-compare  | ours against the best peer on the same input, results checked equal first   |
/// | `probes`      | llc-probe    | the kernel constants its cost functions read (keys declared once, checked)  |
///
/// A card with no peer says why in `no_peer`; every other field may be empty where the card has nothing of that kind
/// (the llc layer's collectives have no llc-run command).

#include <string>
#include <vector>

#include <llc/cost/kernel_probe.hpp>
#include <llc/tools/comparison.hpp>
#include <llc/tools/run_command.hpp>
#include <llc/tools/validation_case.hpp>

namespace llc::tools {

/// Where a card sits: the llc layer's cards come first in every listing and report, in the order llc/card/card.cpp
/// registers them, then the algorithms by name.
enum class CardLayer { llc, algorithm };

struct Card {
    std::string name;     ///< e.g. "fft", "collectives"; unique
    std::string summary;  ///< one line: what it is, and the paper section it follows
    CardLayer layer = CardLayer::algorithm;
    std::vector<run::RunCommand> commands;         ///< llc-run subcommands
    std::vector<validate::Case> cases;             ///< llc-validate cases, in report order
    std::vector<compare::Comparison> comparisons;  ///< llc-compare comparisons
    std::string no_peer;                           ///< why there is no comparison (required when none)
    std::vector<cost::KernelProbe> probes;         ///< llc-probe kernel probes
};

/// Adds a card maker to the registry; called by LLC_REGISTER_CARD before main(). Returns true.
bool register_card(Card (*make)());

/// Every registered card, made on first call: the llc layer's first (in registration order), then by name. @throws
/// llc::Error when two cards share a name, two commands, cases, comparisons or probes share a name across cards, or a
/// card has no comparison and no `no_peer` reason.
[[nodiscard]] const std::vector<Card>& cards();

/// Every card's llc-run commands, validation cases, comparisons and kernel probes, in card order; made once, alive
/// until the program ends (a tool may keep a pointer to the one it runs).
[[nodiscard]] const std::vector<run::RunCommand>& all_commands();
[[nodiscard]] const std::vector<validate::Case>& all_cases();
[[nodiscard]] const std::vector<compare::Comparison>& all_comparisons();
[[nodiscard]] const std::vector<cost::KernelProbe>& all_probes();

}  // namespace llc::tools

/// The namespace the cards are written in, with the drivers' types a card's parts name.
namespace llc::cards {
namespace po = boost::program_options;
using compare::Comparison;
using compare::Options;
using compare::Row;
using compare::time_median;
using compare::time_medians_interleaved;
using run::Run;
using run::RunCommand;
using run::UsageError;
using validate::Case;
using validate::Instance;
using validate::SizeClass;
using validate::TwoBuffers;
}  // namespace llc::cards

#define LLC_CARD_CONCAT_(a, b) a##b
#define LLC_CARD_CONCAT(a, b) LLC_CARD_CONCAT_(a, b)

/// Registers `make` (a function `llc::tools::Card make()`) with the tools. Put it at global scope of the card's
/// card.cpp, once per card.
#define LLC_REGISTER_CARD(make)                                                                   \
    namespace {                                                                                   \
    [[maybe_unused]] const bool LLC_CARD_CONCAT(llc_card_registered_,                             \
                                                __LINE__) = ::llc::tools::register_card(&(make)); \
    }
