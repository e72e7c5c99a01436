// llc::Agreement: one fixed-size allreduce on the way in; on the error path, what each rank passed, gathered and shown.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

#include <llc/agreement.hpp>
#include <llc/error.hpp>
#include <llc/fingerprint.hpp>
#include <llc/group.hpp>

namespace llc {
namespace {

constexpr char record_separator = '\x1e';
constexpr char field_separator = '\x1f';
/// At most this many distinct values (or messages) are listed in one message; the rest are counted.
constexpr std::size_t shown_at_most = 8;

/// The agreement's allreduce combines records of four long longs: the minimum of the first three (the key, its
/// complement, "no rank found an error") and the wrapping sum of the fourth (the pairing balance). One user-defined
/// operation on one contiguous type of four, so that MPI never cuts a record apart.
constexpr int record_entries = 4;

void combine(void* in, void* inout, int* len, MPI_Datatype* /*type*/) {
    const auto* a = static_cast<const long long*>(in);
    auto* b = static_cast<long long*>(inout);
    for (int i = 0; i < *len; ++i, a += record_entries, b += record_entries) {
        for (int k = 0; k < 3; ++k) {
            b[k] = std::min(a[k], b[k]);
        }
        // Unsigned, so that the sum wraps by definition.
        b[3] = static_cast<long long>(static_cast<unsigned long long>(a[3]) + static_cast<unsigned long long>(b[3]));
    }
}

struct CheckReduction {
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Op op = MPI_OP_NULL;
};

/// Made at the first check (after MPI_Init), kept until MPI_Finalize frees them.
const CheckReduction& check_reduction(const char* function) {
    static const CheckReduction reduction = [function] {
        CheckReduction r;
        detail::check_mpi(MPI_Type_contiguous(record_entries, MPI_LONG_LONG, &r.type), function);
        detail::check_mpi(MPI_Type_commit(&r.type), function);
        detail::check_mpi(MPI_Op_create(&combine, 1, &r.op), function);
        return r;
    }();
    return reduction;
}

/// splitmix64's finaliser over an FNV-1a fingerprint: FNV alone is too regular for sums of hashes to cancel only by
/// chance.
unsigned long long exchange_hash(long long from, long long to, long long send, long long recv) {
    auto x = static_cast<unsigned long long>(Fingerprint{}
                                                 .add(std::int64_t{from})
                                                 .add(std::int64_t{to})
                                                 .add(std::int64_t{send})
                                                 .add(std::int64_t{recv})
                                                 .value());
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::size_t begin = 0;
    for (std::size_t end = text.find(separator); end != std::string::npos; end = text.find(separator, begin)) {
        parts.push_back(text.substr(begin, end - begin));
        begin = end + 1;
    }
    parts.push_back(text.substr(begin));
    return parts;
}

/// Every rank's `mine`, in rank order. Raw MPI on the group's communicator: the error path is no superstep of the
/// trace.
std::vector<std::string> allgather_text(const Group& g, const std::string& mine, const char* function) {
    const auto P = static_cast<std::size_t>(g.size());
    const int length = detail::to_count(function, "the agreement's record", mine.size());
    std::vector<int> lengths(P);
    detail::check_mpi(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, g.native()), function);
    const std::vector<int> displs = detail::displacements(function, lengths);
    std::string all(static_cast<std::size_t>(displs.back()), '\0');
    detail::check_mpi(
        MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), displs.data(), MPI_CHAR, g.native()),
        function);
    std::vector<std::string> texts(P);
    for (std::size_t q = 0; q < P; ++q) {
        texts[q] = all.substr(static_cast<std::size_t>(displs[q]), static_cast<std::size_t>(lengths[q]));
    }
    return texts;
}

/// "rank 3", "ranks 0, 2-4".
std::string rank_list(const std::vector<int>& ranks) {
    std::string text = ranks.size() == 1 ? "rank " : "ranks ";
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) {
            ++j;
        }
        if (i > 0) {
            text += ", ";
        }
        text += std::to_string(ranks[i]);
        if (j > i) {
            text += '-';
            text += std::to_string(ranks[j]);
        }
        i = j + 1;
    }
    return text;
}

/// "d8 on ranks 0, 2; euclidean on rank 1": the ranks grouped by the text they passed, in order of first appearance.
std::string by_value(const std::vector<std::string>& texts) {
    std::vector<std::pair<std::string, std::vector<int>>> groups;
    for (std::size_t q = 0; q < texts.size(); ++q) {
        const auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& e) { return e.first == texts[q]; });
        if (it == groups.end()) {
            groups.emplace_back(texts[q], std::vector<int>{static_cast<int>(q)});
        } else {
            it->second.push_back(static_cast<int>(q));
        }
    }
    std::string text;
    for (std::size_t i = 0; i < groups.size() && i < shown_at_most; ++i) {
        text += (i > 0 ? "; " : "") + groups[i].first + " on " + rank_list(groups[i].second);
    }
    if (groups.size() > shown_at_most) {
        text += "; and " + std::to_string(groups.size() - shown_at_most) + " other values";
    }
    return text;
}

std::string hex(long long value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
    return buffer;
}

/// One rank's record, parsed: its entry point, its own verdict, and per argument {name, key, shown}.
struct Record {
    std::string function;
    std::string error;
    std::string pairing;  ///< "name US partner US send US recv", or empty
    std::vector<std::vector<std::string>> arguments;

    explicit Record(const std::string& text) {
        std::vector<std::string> parts = split(text, record_separator);
        function = parts.size() > 0 ? parts[0] : "";
        error = parts.size() > 1 ? parts[1] : "";
        pairing = parts.size() > 2 ? parts[2] : "";
        for (std::size_t i = 3; i + 1 < parts.size(); ++i) {
            arguments.push_back(split(parts[i], field_separator));
            arguments.back().resize(3);
        }
    }
    /// The entry point and the argument names: what must be the same before values can be compared.
    [[nodiscard]] std::string signature() const {
        std::string text = function + "(" + split(pairing, field_separator)[0];
        for (std::size_t i = 0; i < arguments.size(); ++i) {
            text += (i > 0 || !pairing.empty() ? ", " : "") + arguments[i][0];
        }
        return text + ")";
    }
    /// The call with its values, e.g. "llc::fft(n = 8, layout = block)".
    [[nodiscard]] std::string call() const {
        std::string text = function + "(";
        if (!pairing.empty()) {
            const std::vector<std::string> p = split(pairing, field_separator);
            text += p[0] + " = " + (p.size() > 1 ? p[1] : "");
        }
        for (std::size_t i = 0; i < arguments.size(); ++i) {
            text += (i > 0 || !pairing.empty() ? ", " : "") + arguments[i][0] + " = " + arguments[i][2];
        }
        return text + ")";
    }
};

std::vector<Record> parse(const std::vector<std::string>& texts) {
    std::vector<Record> records;
    records.reserve(texts.size());
    for (const std::string& text : texts) {
        records.emplace_back(text);
    }
    return records;
}

}  // namespace

Agreement::Agreement(Group& g, const char* function) : group_(&g), function_(function) {}

Agreement& Agreement::same(std::string_view name, long long value, std::string_view shown) {
    // An integer's text is made on the error path only (record()): the way in stays one allreduce and a hash.
    arguments_.push_back({std::string(name), value, std::string(shown), {}, 0, {}});
    return *this;
}

Agreement& Agreement::same_real(std::string_view name, double value) {
    long long bits = 0;
    static_assert(sizeof bits == sizeof value);
    std::memcpy(&bits, &value, sizeof bits);
    arguments_.push_back({std::string(name), bits, detail::format_value(value), {}, 0, {}});
    return *this;
}

void Agreement::add_array(std::string_view name,
                          std::span<const std::byte> bytes,
                          std::size_t entry_size,
                          std::function<std::string(const std::byte*)> format) {
    const auto entries = static_cast<std::int64_t>(bytes.size() / entry_size);
    const long long key = Fingerprint{}.add(entries).add(bytes).value();
    arguments_.push_back(
        {std::string(name), key, std::to_string(entries) + " entries", bytes, entry_size, std::move(format)});
}

Agreement& Agreement::error(std::string message) {
    if (error_.empty()) {
        error_ = std::move(message);
    }
    return *this;
}

Agreement& Agreement::pairing(std::string_view name, int partner, long long send_count, long long recv_count) {
    pairing_ = {std::string(name), partner, send_count, recv_count};
    paired_ = true;
    return *this;
}

std::string Agreement::record() const {
    std::string text = std::string(function_) + record_separator + error_ + record_separator;
    if (paired_) {
        text += pairing_.name + field_separator + std::to_string(pairing_.partner) + field_separator +
                std::to_string(pairing_.send) + field_separator + std::to_string(pairing_.recv);
    }
    text += record_separator;
    for (const Argument& a : arguments_) {
        text += a.name + field_separator + std::to_string(a.key) + field_separator +
                (a.shown.empty() ? std::to_string(a.key) : a.shown) + record_separator;
    }
    return text;
}

void Agreement::check() {
    Group& g = *group_;
    if (!Group::checks_enabled() || g.size() == 1) {
        if (!error_.empty()) {
            throw Error(error_);
        }
        return;
    }
    auto& recorder = detail::Recorder::instance();
    g.check_start_ = recorder.on() ? recorder.now() : -1.0;
    // One number stands for the entry point, the argument names and their values: the allreduce has the same size in
    // every entry point, so ranks in different ones meet in it instead of truncating each other's messages.
    Fingerprint h;
    const std::string_view function(function_);
    h.add(static_cast<std::int64_t>(function.size())).add(std::span<const char>(function));
    for (const Argument& a : arguments_) {
        h.add(static_cast<std::int64_t>(a.name.size())).add(std::span<const char>(a.name)).add(std::int64_t{a.key});
    }
    if (paired_) {
        h.add(static_cast<std::int64_t>(pairing_.name.size())).add(std::span<const char>(pairing_.name));
    }
    const long long key = h.value();
    // This rank's exchange minus the one its partner must declare: the sum over the ranks is 0 when they pair up.
    unsigned long long balance = 0;
    if (paired_) {
        const auto& p = pairing_;
        balance =
            exchange_hash(g.rank(), p.partner, p.send, p.recv) - exchange_hash(p.partner, g.rank(), p.recv, p.send);
    }
    // MIN over (key, ~key) gives the minimum and the complement of the maximum; the third entry: no rank found an
    // error; the fourth, summed: the pairing balance.
    long long values[record_entries] = {key, ~key, error_.empty() ? 1 : 0, static_cast<long long>(balance)};
    const CheckReduction& reduction = check_reduction(function_);
    detail::check_mpi(MPI_Allreduce(MPI_IN_PLACE, values, 1, reduction.type, reduction.op, g.native()), function_);
    if (values[2] != 0 && values[0] == ~values[1] && values[3] == 0) {
        return;
    }
    g.check_start_ = -1.0;
    explain();
}

void Agreement::explain() {
    const Group& g = *group_;
    const std::string group = " of group " + g.path();
    std::vector<Record> records = parse(allgather_text(g, record(), function_));
    // Errors first: a rank that rejected its own arguments says why, on every rank.
    std::vector<std::string> others;
    for (std::size_t q = 0; q < records.size(); ++q) {
        if (!records[q].error.empty() && static_cast<int>(q) != g.rank() && others.size() < shown_at_most) {
            others.push_back("rank " + std::to_string(q) + ": " + records[q].error);
        }
    }
    if (!error_.empty() || !others.empty()) {
        std::string message = error_.empty() ? std::string(function_) + ": another rank" + group +
                                                   " rejected its arguments; this rank's were valid"
                                             : error_;
        for (std::size_t i = 0; i < others.size(); ++i) {
            message += (i == 0 ? (error_.empty() ? ": " : " (other ranks too: ") : "; ") + others[i];
        }
        if (!error_.empty() && !others.empty()) {
            message += ")";
        }
        throw Error(message);
    }
    // Ranks in different entry points, or with different argument lists: show each call.
    const bool same_call = std::all_of(
        records.begin(), records.end(), [&](const Record& r) { return r.signature() == records[0].signature(); });
    if (!same_call) {
        std::vector<std::string> calls;
        for (const Record& r : records) {
            calls.push_back(r.call());
        }
        throw Error(std::string(function_) + ": the ranks" + group + " are not in the same collective call (" +
                    by_value(calls) + "): every rank must call the same entry point with the same arguments");
    }
    // The same call: the arguments whose values differ. For an array, each rank's first entry that differs from rank
    // 0's, beside the fingerprint that found it.
    std::vector<std::size_t> differing;
    bool arrays = false;
    for (std::size_t i = 0; i < arguments_.size(); ++i) {
        const bool differs = std::any_of(records.begin(), records.end(), [&](const Record& r) {
            return r.arguments[i][1] != records[0].arguments[i][1];
        });
        if (differs) {
            differing.push_back(i);
            arrays = arrays || arguments_[i].entry_size > 0;
        }
    }
    for (const std::size_t i : differing) {
        Argument& a = arguments_[i];
        if (a.entry_size == 0) {
            continue;
        }
        long long bytes0 = static_cast<long long>(a.bytes.size());
        detail::check_mpi(MPI_Bcast(&bytes0, 1, MPI_LONG_LONG, 0, g.native()), function_);
        if (bytes0 > INT_MAX) {
            a.shown += ", fingerprint " + hex(a.key);
            continue;
        }
        std::vector<std::byte> first(static_cast<std::size_t>(bytes0));
        if (g.rank() == 0) {
            std::copy(a.bytes.begin(), a.bytes.end(), first.begin());
        }
        detail::check_mpi(MPI_Bcast(first.data(), static_cast<int>(bytes0), MPI_BYTE, 0, g.native()), function_);
        const std::size_t common = std::min(first.size(), a.bytes.size()) / a.entry_size;
        for (std::size_t e = 0; e < common && g.rank() != 0; ++e) {
            const std::byte* mine = a.bytes.data() + e * a.entry_size;
            const std::byte* theirs = first.data() + e * a.entry_size;
            if (std::memcmp(mine, theirs, a.entry_size) != 0) {
                a.shown +=
                    ", [" + std::to_string(e) + "] = " + a.format(mine) + " where rank 0 has " + a.format(theirs);
                break;
            }
        }
        a.shown += ", fingerprint " + hex(a.key);
    }
    if (arrays) {
        records = parse(allgather_text(g, record(), function_));
    }
    std::string message = function_;
    for (std::size_t n = 0; n < differing.size(); ++n) {
        std::vector<std::string> shown;
        for (const Record& r : records) {
            shown.push_back(r.arguments[differing[n]][2]);
        }
        message += (n == 0 ? ": argument '" : "; argument '") + arguments_[differing[n]].name +
                   "' differs across the ranks" + group + " (" + by_value(shown) + ")";
    }
    if (differing.empty()) {
        if (paired_) {
            std::vector<std::string> pairings;
            for (const Record& r : records) {
                pairings.push_back(r.pairing);
            }
            throw Error(explain_pairing(pairings));
        }
        message += ": the arguments differ across the ranks" + group;
    }
    throw Error(message + ": every rank must pass the same value");
}

std::string Agreement::explain_pairing(const std::vector<std::string>& pairings) const {
    const std::string group = " of group " + group_->path();
    struct Exchange {
        long long partner = -1;
        long long send = 0;
        long long recv = 0;
    };
    std::vector<Exchange> all;
    for (const std::string& text : pairings) {
        const std::vector<std::string> f = split(text, field_separator);
        all.push_back(f.size() == 4 ? Exchange{std::stoll(f[1]), std::stoll(f[2]), std::stoll(f[3])} : Exchange{});
    }
    const auto P = static_cast<long long>(all.size());
    const std::string& name = pairing_.name;
    std::vector<std::string> unpaired;
    std::vector<std::string> sizes;
    for (long long r = 0; r < P; ++r) {
        const Exchange& mine = all[static_cast<std::size_t>(r)];
        const long long q = mine.partner;
        const std::string rank = "rank " + std::to_string(r);
        if (q < 0 || q >= P) {
            unpaired.push_back(rank + " names " + std::to_string(q));
            continue;
        }
        const Exchange& theirs = all[static_cast<std::size_t>(q)];
        if (theirs.partner != r) {
            unpaired.push_back(rank + " names " + std::to_string(q) + ", but rank " + std::to_string(q) + " names " +
                               std::to_string(theirs.partner));
        } else if (mine.recv != theirs.send) {
            sizes.push_back(rank + " receives " + std::to_string(mine.recv) + " elements from rank " +
                            std::to_string(q) + ", which sends " + std::to_string(theirs.send));
        }
    }
    const auto list = [](const std::vector<std::string>& items) {
        std::string text;
        for (std::size_t i = 0; i < items.size() && i < shown_at_most; ++i) {
            text += (i > 0 ? "; " : "") + items[i];
        }
        if (items.size() > shown_at_most) {
            text += "; and " + std::to_string(items.size() - shown_at_most) + " more";
        }
        return text;
    };
    if (!unpaired.empty()) {
        return std::string(function_) + ": argument '" + name + "' does not pair the ranks" + group + " up (" +
               list(unpaired) + "): the partner of each rank's partner must be the rank itself (a rank with nothing " +
               "to exchange names itself)";
    }
    if (!sizes.empty()) {
        return std::string(function_) + ": mismatched buffer sizes between partners in group " + group_->path() + " (" +
               list(sizes) + "): argument 'recv.size()' of each rank must equal its partner's send.size()";
    }
    return std::string(function_) + ": the exchanges of group " + group_->path() + " do not match (a hash of the '" +
           name + "' relation and the sizes differs, yet no rank's exchange " + "differs from its partner's)";
}

}  // namespace llc
