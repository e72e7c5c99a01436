#include <vector>

#include <llc/llc.h>

namespace llc {
namespace {
std::vector<Group*>& stack() {
    static std::vector<Group*> groups;
    return groups;
}
}  // namespace

Group& current_group() {
    return stack().empty() ? Group::world() : *stack().back();
}

namespace detail {
CurrentGroup::CurrentGroup(Group& g) {
    stack().push_back(&g);
}
CurrentGroup::~CurrentGroup() {
    stack().pop_back();
}
}  // namespace detail
}  // namespace llc
