// The row layout of article [2] (blocks of r rows, block b on processor b mod P) and its checks.
#include <algorithm>
#include <string>

#include <llc/algorithms/row_image.hpp>
#include <llc/error.hpp>

namespace llc {

std::int64_t block_rows_held(int P, int rank, std::int64_t height, std::int64_t r) {
    constexpr const char* name = "llc::block_rows_held";
    if (P < 1) {
        throw_argument_error(name, "P", std::to_string(P), "must be at least 1");
    }
    if (rank < 0 || rank >= P) {
        throw_argument_error(name, "rank", std::to_string(rank), "must be in [0, P = " + std::to_string(P) + ")");
    }
    if (height < 0) {
        throw_argument_error(name, "height", std::to_string(height), "must be at least 0");
    }
    if (r < 1) {
        throw_argument_error(name, "r", std::to_string(r), "must be at least 1");
    }
    // Blocks rank, rank + P, …: all full but the image's last block, which may be short.
    const std::int64_t blocks = (height + r - 1) / r;
    if (rank >= blocks) {
        return 0;
    }
    const std::int64_t mine = (blocks - 1 - rank) / P + 1;
    const std::int64_t last = rank + (mine - 1) * P;
    return (mine - 1) * r + std::min(r, height - last * r);
}

RowBlocks RowBlocks::checked(const char* function, std::int64_t width, std::int64_t height, std::int64_t r, int P) {
    if (width < 1) {
        throw_argument_error(function, "width", std::to_string(width), "must be at least 1");
    }
    if (height < 1) {
        throw_argument_error(function, "height", std::to_string(height), "must be at least 1");
    }
    if (r < 1) {
        throw_argument_error(function, "r", std::to_string(r), "must be at least 1");
    }
    if (P < 1) {
        throw_argument_error(function, "P", std::to_string(P), "must be at least 1");
    }
    return {width, height, r, P};
}

namespace detail {

std::string image_problem(
    const char* function, const char* argument, std::int64_t width, std::int64_t height, std::size_t pixels) {
    const std::string name(argument);
    if (width < 1) {
        return argument_message(function, name + ".width", std::to_string(width), "must be at least 1");
    }
    if (height < 1) {
        return argument_message(function, name + ".height", std::to_string(height), "must be at least 1");
    }
    if (static_cast<std::int64_t>(pixels) != width * height) {
        return argument_message(function,
                                name + ".pixels.size()",
                                std::to_string(pixels),
                                "must be width × height = " + std::to_string(width * height));
    }
    return {};
}

std::string rows_problem(
    const char* function, int P, int rank, std::int64_t width, std::int64_t height, std::int64_t r, RowsArguments a) {
    const auto pixels = static_cast<std::size_t>(block_rows_held(P, rank, height, r) * width);
    if (a.input_size != pixels) {
        return argument_message(function,
                                a.input,
                                std::to_string(a.input_size),
                                "must be this rank's rows × width = " + std::to_string(pixels));
    }
    if (a.output_size != pixels) {
        return argument_message(function,
                                a.output,
                                std::to_string(a.output_size),
                                std::string("must equal ") + a.input + " = " + std::to_string(pixels));
    }
    return {};
}

}  // namespace detail

}  // namespace llc
