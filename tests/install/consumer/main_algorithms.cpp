// Links against the installed llc::algorithms alone, in a program that owns MPI: the matrix-chain order (checked
// against the textbook example, CLRS §15.2) and contour tracing through its own header. Prints "consumer ok on P
// processors" on rank 0 when both are right.
#include <cstdint>
#include <cstdio>
#include <vector>

#include <mpi.h>

#include <llc/algorithms/contour_tracing.hpp>
#include <llc/algorithms/matrix_chain.hpp>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int status = 0;
    {
        llc::Group g(MPI_COMM_WORLD, "consumer");
        const std::vector<std::int64_t> dims{30, 35, 15, 5, 10, 20, 25};
        const auto chain = llc::matrix_chain(g, dims);
        // A 4 × 4 square in an 8 × 8 image: one outer border of 12 pixels, no hole.
        std::vector<std::uint8_t> image(64, 0);
        for (int r = 2; r < 6; ++r) {
            for (int c = 2; c < 6; ++c) {
                image[static_cast<std::size_t>(r * 8 + c)] = 1;
            }
        }
        const auto borders = llc::trace_contours(g, llc::BinaryImage::from_whole(g, 8, 8, image));
        const auto states = g.allreduce(static_cast<long long>(borders.states().size()), llc::Op::sum);
        if (chain.cost != 15125 || chain.parenthesization != "((A1(A2A3))((A4A5)A6))" || states != 12) {
            std::fprintf(stderr,
                         "consumer: wrong result: cost %lld, %s, %lld border states\n",
                         static_cast<long long>(chain.cost),
                         chain.parenthesization.c_str(),
                         states);
            status = 1;
        } else if (g.rank() == 0) {
            std::printf("consumer ok on %d processors: llc::algorithms\n", g.size());
        }
    }
    MPI_Finalize();
    return status;
}
