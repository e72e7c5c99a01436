/* docs/scaling/smpi_bursts.c: what SimGrid SMPI charges a compute burst on this host, beside what the burst's code
 * costs here (docs/scaling/results.md, "What a short compute burst costs under SMPI"). Standalone, no llc:
 *
 *   smpicc -O2 docs/scaling/smpi_bursts.c -o /tmp/smpi_bursts
 *   run="smpirun -platform platforms/cluster-16x4.xml -hostfile docs/scaling/round-robin-hosts.txt \
 *        --cfg=smpi/host-speed:1Gf --log=root.thres:warning"
 *   $run -np 1 /tmp/smpi_bursts host          # this host's syscall and first-touch page fault, host clocks
 *   $run -np 16 /tmp/smpi_bursts empty        # an empty burst, and the bursts around MPI_Irecv + MPI_Isend
 *   $run -np 4 /tmp/smpi_bursts fault 4       # a burst that touches 4 fresh pages
 *   $run -np 16 /tmp/smpi_bursts block 2048   # a symv-like pass over a 128 x 128 block, then a ring shift
 *   $run -np 16 /tmp/smpi_bursts block 2048 shared   # the same with every rank's rows on one physical block
 *
 * "charged" is simulated time (MPI_Wtime around the burst), "cpu" this thread's CPU time (what SMPI times a burst
 * with); (clock_gettime) bypasses smpi_helpers.h's macro, which would give the simulated clock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

static double cpu(void) {
    struct timespec t;
    (clock_gettime)(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
static double wall(void) {
    struct timespec t;
    (clock_gettime)(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
static double sum_over_ranks(double v) {
    double s = 0.0;
    MPI_Reduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return s;
}
volatile double sink;

/* One pass over rows [0, b) and columns [c0, c0 + b) of a b x n row-major block, both directions of a symmetric
 * product (as symv's fused pass). */
static void pass(const double* A, int n, int b, int c0, const double* x, double* y, double* g) {
    for (int i = 0; i < b; ++i) {
        const double* r = A + (size_t)i * n + c0;
        double s = 0.0;
        for (int j = 0; j < b; ++j) {
            s += r[j] * x[c0 + j];
            g[j] += r[j] * x[c0 + i];
        }
        y[i] += s;
    }
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int r = 0, p = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const char* mode = argc > 1 ? argv[1] : "empty";
    const int steps = 50;
    if (strcmp(mode, "host") == 0 && r == 0) {
        const int calls = 100000;
        double t = wall();
        for (int i = 0; i < calls; ++i)
            (void)cpu();
        const double thread_clock = (wall() - t) / calls;
        t = wall();
        for (int i = 0; i < calls; ++i)
            (void)syscall(SYS_getppid);
        const double getppid = (wall() - t) / calls;
        const size_t bytes = (size_t)64 << 20;
        char* q = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        t = wall();
        for (size_t i = 0; i < bytes; i += 4096)
            q[i] = 1;
        const double fault = (wall() - t) / (bytes / 4096);
        munmap(q, bytes);
        printf("host: clock_gettime(CLOCK_THREAD_CPUTIME_ID) %.2f us, getppid %.2f us, first touch of a page %.2f us\n",
               1e6 * thread_clock,
               1e6 * getppid,
               1e6 * fault);
    } else if (strcmp(mode, "empty") == 0) {
        char sb[8] = {0}, rb[8];
        double empty = 0.0, posting = 0.0;
        for (int s = 0; s < steps; ++s) {
            const double a = MPI_Wtime();
            const double b = MPI_Wtime();
            MPI_Request q[2];
            MPI_Irecv(rb, 8, MPI_CHAR, (r + 1) % p, 0, MPI_COMM_WORLD, &q[0]);
            MPI_Isend(sb, 8, MPI_CHAR, (r + p - 1) % p, 0, MPI_COMM_WORLD, &q[1]);
            const double d = MPI_Wtime();
            MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
            empty += b - a;
            posting += d - b;
        }
        empty = sum_over_ranks(empty) / p / steps;
        posting = sum_over_ranks(posting) / p / steps;
        if (r == 0)
            printf("P=%d: empty burst charged %.2f us; MPI_Irecv + MPI_Isend (three bursts) charged %.2f us\n",
                   p,
                   1e6 * empty,
                   1e6 * posting);
    } else if (strcmp(mode, "fault") == 0) {
        const long pages = argc > 2 ? atol(argv[2]) : 1;
        double charged = 0.0;
        for (int s = 0; s < steps; ++s) {
            const double a = MPI_Wtime();
            char* q = mmap(NULL, pages * 4096 + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            for (long i = 0; i < pages * 4096; i += 4096)
                q[i] = 1;
            munmap(q, pages * 4096 + 4096);
            charged += MPI_Wtime() - a;
            MPI_Barrier(MPI_COMM_WORLD);
        }
        charged = sum_over_ranks(charged) / p / steps;
        if (r == 0)
            printf("P=%d: a burst touching %ld fresh pages charged %.1f us\n", p, pages, 1e6 * charged);
    } else if (strcmp(mode, "block") == 0) {
        const int n = argc > 2 ? atoi(argv[2]) : 2048;
        const int shared = argc > 3 && strcmp(argv[3], "shared") == 0;
        const int b = n / p;
        const size_t entries = (size_t)b * n;
        double* A = shared ? SMPI_SHARED_MALLOC(entries * sizeof(double)) : malloc(entries * sizeof(double));
        double* x = malloc(sizeof(double) * n);
        double* y = calloc(b, sizeof(double));
        double* g = calloc(b, sizeof(double));
        double* rb = calloc(b, sizeof(double));
        for (size_t i = 0; i < entries; ++i)
            A[i] = 1e-6 * (double)(i % 977);
        for (int i = 0; i < n; ++i)
            x[i] = 1.0 / (i + 1);
        MPI_Barrier(MPI_COMM_WORLD);
        double charged = 0.0, first = 0.0, again = 0.0;
        for (int s = 0; s < p; ++s) {
            const int c0 = ((r + s) % p) * b;
            const double w0 = MPI_Wtime();
            const double c1 = cpu();
            pass(A, n, b, c0, x, y, g);
            const double c2 = cpu();
            pass(A, n, b, c0, x, y, g);
            const double c3 = cpu();
            MPI_Request q[2];
            MPI_Irecv(rb, b, MPI_DOUBLE, (r + 1) % p, 0, MPI_COMM_WORLD, &q[0]);
            MPI_Isend(g, b, MPI_DOUBLE, (r + p - 1) % p, 0, MPI_COMM_WORLD, &q[1]);
            charged += MPI_Wtime() - w0;
            MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
            first += c2 - c1;
            again += c3 - c2;
        }
        sink = y[0];
        charged = sum_over_ranks(charged) / p / p;
        first = sum_over_ranks(first) / p / p;
        again = sum_over_ranks(again) / p / p;
        if (r == 0)
            printf(
                "P=%d, %d x %d block%s: burst charged %.1f us; first pass %.1f us (%.2f ns an entry), the same pass "
                "again %.1f us (%.2f ns)\n",
                p,
                b,
                b,
                shared ? " (rows shared)" : "",
                1e6 * charged,
                1e6 * first,
                1e9 * first / ((double)b * b),
                1e6 * again,
                1e9 * again / ((double)b * b));
        if (shared)
            SMPI_SHARED_FREE(A);
        else
            free(A);
        free(x);
        free(y);
        free(g);
        free(rb);
    }
    MPI_Finalize();
    return 0;
}
