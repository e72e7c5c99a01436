#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>

#include <png.h>

#include <llc/tools/image_io.hpp>

namespace llc::tools {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
    throw std::runtime_error("image file '" + path + "': " + what);
}

std::vector<unsigned char> read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        fail(path, "cannot be opened");
    }
    std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        fail(path, "cannot be read");
    }
    return bytes;
}

/// The next header number of a PGM (whitespace and '#' comments before it).
std::int64_t pgm_number(const std::string& path, const std::vector<unsigned char>& bytes, std::size_t& at) {
    while (at < bytes.size() && (std::isspace(bytes[at]) != 0 || bytes[at] == '#')) {
        if (bytes[at] == '#') {
            while (at < bytes.size() && bytes[at] != '\n') {
                ++at;
            }
        } else {
            ++at;
        }
    }
    if (at >= bytes.size() || std::isdigit(bytes[at]) == 0) {
        fail(path, "PGM header is truncated or not a number");
    }
    std::int64_t value = 0;
    while (at < bytes.size() && std::isdigit(bytes[at]) != 0) {
        value = value * 10 + (bytes[at++] - '0');
        if (value > (std::int64_t{1} << 40)) {
            fail(path, "PGM header number is too large");
        }
    }
    return value;
}

GreyImage read_pgm(const std::string& path, const std::vector<unsigned char>& bytes) {
    std::size_t at = 2;
    GreyImage image;
    image.width = pgm_number(path, bytes, at);
    image.height = pgm_number(path, bytes, at);
    const std::int64_t maxval = pgm_number(path, bytes, at);
    if (image.width < 1 || image.height < 1) {
        fail(path, "PGM of " + std::to_string(image.width) + " × " + std::to_string(image.height) + " pixels is empty");
    }
    (void)check_input_elements("image file '" + path + "'", image.width, image.height);
    if (maxval < 1 || maxval > 65535) {
        fail(path, "PGM maxval " + std::to_string(maxval) + " is outside [1, 65535]");
    }
    ++at;  // the single whitespace after maxval
    const std::int64_t sample = maxval < 256 ? 1 : 2;
    const std::int64_t need = image.width * image.height * sample;
    if (at > bytes.size() || static_cast<std::int64_t>(bytes.size() - at) < need) {
        fail(path,
             "PGM is truncated: " + std::to_string(image.width) + " × " + std::to_string(image.height) +
                 " pixels need " + std::to_string(need) + " bytes of data, the file has " +
                 std::to_string(at > bytes.size() ? 0 : bytes.size() - at));
    }
    image.pixels.resize(static_cast<std::size_t>(image.width * image.height));
    for (std::size_t i = 0; i < image.pixels.size(); ++i) {
        image.pixels[i] =
            sample == 1 ? bytes[at + i] : static_cast<std::uint16_t>(bytes[at + 2 * i] << 8 | bytes[at + 2 * i + 1]);
    }
    return image;
}

/// libpng reports errors through longjmp by default; this makes them exceptions that name the file instead.
struct PngRead {
    png_structp png = nullptr;
    png_infop info = nullptr;
    ~PngRead() { png_destroy_read_struct(&png, info != nullptr ? &info : nullptr, nullptr); }
};

struct MemorySource {
    const std::vector<unsigned char>* bytes;
    std::size_t at;
};

/// Refuses a PNG whose header claims more pixels than the limit, or more image data than its file can expand to,
/// before anything is allocated for them: a 1 KB file must not make us reserve 10 GB.
void check_png_size(const std::string& path, const PngRead& r, std::size_t file_bytes) {
    const auto width = static_cast<std::int64_t>(png_get_image_width(r.png, r.info));
    const auto height = static_cast<std::int64_t>(png_get_image_height(r.png, r.info));
    const std::int64_t pixels = check_input_elements("image file '" + path + "'", width, height);
    // The filtered rows (a filter byte each) are what the zlib stream inflates to; deflate never compresses more than
    // 1032:1, so a stream of at most file_bytes inflates to at most 1032 × file_bytes.
    const std::int64_t bits = static_cast<std::int64_t>(png_get_bit_depth(r.png, r.info)) * width;
    const std::int64_t raw = (bits / 8 + (bits % 8 != 0 ? 1 : 0) + 1) * height;
    constexpr std::int64_t deflate_ratio = 1032;
    if (raw / deflate_ratio > static_cast<std::int64_t>(file_bytes)) {
        fail(path,
             "PNG header claims " + std::to_string(width) + " × " + std::to_string(height) + " = " +
                 std::to_string(pixels) + " pixels (" + std::to_string(raw) + " bytes of rows), more than its " +
                 std::to_string(file_bytes) + "-byte file can hold (deflate expands at most 1032:1)");
    }
}

GreyImage read_png(const std::string& path, const std::vector<unsigned char>& bytes) {
    PngRead r;
    r.png = png_create_read_struct(
        PNG_LIBPNG_VER_STRING,
        const_cast<std::string*>(&path),
        [](png_structp png, png_const_charp message) {
            throw std::runtime_error("image file '" + *static_cast<std::string*>(png_get_error_ptr(png)) +
                                     "': PNG is corrupt or truncated (" + message + ")");
        },
        [](png_structp, png_const_charp) {});
    if (r.png == nullptr) {
        fail(path, "libpng could not start");
    }
    r.info = png_create_info_struct(r.png);
    MemorySource source{&bytes, 0};
    png_set_read_fn(r.png, &source, [](png_structp png, png_bytep out, png_size_t count) {
        auto* s = static_cast<MemorySource*>(png_get_io_ptr(png));
        if (s->at + count > s->bytes->size()) {
            png_error(png, "unexpected end of file");
        }
        std::copy_n(s->bytes->data() + s->at, count, out);
        s->at += count;
    });
    png_read_info(r.png, r.info);
    check_png_size(path, r, bytes.size());
    const int colour = png_get_color_type(r.png, r.info);
    const int depth = png_get_bit_depth(r.png, r.info);
    if (colour != PNG_COLOR_TYPE_GRAY) {
        fail(path, "PNG is not greyscale (colour type " + std::to_string(colour) + ")");
    }
    if (depth < 8) {
        png_set_expand_gray_1_2_4_to_8(r.png);
    }
    if (depth == 16) {
        png_set_swap(r.png);  // little-endian samples into uint16_t
    }
    png_read_update_info(r.png, r.info);
    GreyImage image;
    image.width = png_get_image_width(r.png, r.info);
    image.height = png_get_image_height(r.png, r.info);
    if (image.width < 1 || image.height < 1) {
        fail(path, "PNG is empty");
    }
    const std::size_t row_bytes = png_get_rowbytes(r.png, r.info);
    std::vector<unsigned char> data(row_bytes * static_cast<std::size_t>(image.height));
    std::vector<png_bytep> rows(static_cast<std::size_t>(image.height));
    for (std::size_t y = 0; y < rows.size(); ++y) {
        rows[y] = data.data() + y * row_bytes;
    }
    png_read_image(r.png, rows.data());
    image.pixels.resize(static_cast<std::size_t>(image.width * image.height));
    const auto w = static_cast<std::size_t>(image.width);
    for (std::size_t y = 0; y < rows.size(); ++y) {
        for (std::size_t x = 0; x < w; ++x) {
            image.pixels[y * w + x] =
                depth == 16 ? static_cast<std::uint16_t>(rows[y][2 * x] | rows[y][2 * x + 1] << 8) : rows[y][x];
        }
    }
    return image;
}

}  // namespace

std::int64_t max_input_elements() {
    constexpr std::int64_t fallback = std::int64_t{1} << 30;
    const char* const text = std::getenv("LLC_MAX_INPUT_ELEMENTS");
    if (text == nullptr) {
        return fallback;
    }
    char* end = nullptr;
    const long long value = std::strtoll(text, &end, 10);
    return end != text && *end == '\0' && value > 0 ? value : fallback;
}

std::int64_t check_input_elements(const std::string& what, std::int64_t width, std::int64_t height) {
    const std::int64_t limit = max_input_elements();
    if (width < 1 || height < 1) {
        throw std::runtime_error(what + ": " + std::to_string(width) + " × " + std::to_string(height) +
                                 " is empty (each side must be at least 1)");
    }
    if (width > limit || height > limit / width) {
        // The product is printed as a double: it may not fit in 64 bits.
        char product[32];
        std::snprintf(product, sizeof product, "%.4g", static_cast<double>(width) * static_cast<double>(height));
        throw std::runtime_error(what + ": " + std::to_string(width) + " × " + std::to_string(height) + " = " +
                                 product + " elements exceed the limit of " + std::to_string(limit) +
                                 " (raise it with the environment variable LLC_MAX_INPUT_ELEMENTS)");
    }
    return width * height;
}

GreyImage read_grey_image(const std::string& path) {
    const std::vector<unsigned char> bytes = read_all(path);
    if (bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] == '5') {
        return read_pgm(path, bytes);
    }
    if (bytes.size() >= 8 && png_sig_cmp(bytes.data(), 0, 8) == 0) {
        return read_png(path, bytes);
    }
    fail(path, bytes.empty() ? "is empty" : "is neither a binary PGM (P5) nor a PNG");
}

std::vector<char> pgm16(std::int64_t width, std::int64_t height, const std::vector<std::int32_t>& values) {
    const std::string header = "P5\n" + std::to_string(width) + " " + std::to_string(height) + "\n65535\n";
    std::vector<char> out(header.begin(), header.end());
    out.reserve(out.size() + 2 * values.size());
    for (const std::int32_t v : values) {
        const auto clamped = static_cast<std::uint16_t>(std::clamp(v, 0, 65535));
        out.push_back(static_cast<char>(clamped >> 8));
        out.push_back(static_cast<char>(clamped & 0xff));
    }
    return out;
}

}  // namespace llc::tools
