// class: solver
// Jacobi iteration for A x = b in the manner of a numerical-methods course's GPU port:
// one thread per row computes sigma = sum over j != i of A[i][j] * x_old[j] (the
// diagonal skipped by an `if` in the loop) and x_new[i] = (b[i] - sigma) / A[i][i]; the
// host runs a fixed number of sweeps and swaps the two vectors.
// Sizes: n = 4096 (A is 64 MB), 40 sweeps.
// Naive estimate on the H100: 4096 threads read A across rows (uncoalesced), ~1 ms a
// sweep: ~40 ms.
// Check: x after the 40 sweeps against the same sweeps in double on the host, from the
// same diagonally dominant float A.
#include "textbook_util.h"

#define N 4096
#define SWEEPS 40

#pragma kopt optimize launch(grid: (n + 63) / 64; block: 64) args(n = N) \
    buffers(A[n * n] in, b[n] in, x_old[n] in, x_new[n] out) tol(rtol = 1e-3, atol = 1e-7)
__global__ void jacobi_sweep(const float *A, const float *b, const float *x_old, float *x_new, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sigma = 0.0f;
        for (int j = 0; j < n; j++) {
            if (j != i)
                sigma += A[i * n + j] * x_old[j];
        }
        x_new[i] = (b[i] - sigma) / A[i * n + i];
    }
}

int main()
{
    int n = N;
    std::vector<float> hA = textbook::diagonallyDominant(n, 191);
    float *A = textbook::upload(hA);
    float *b = bench::uniformBuffer(n, 192);
    float *x = bench::zeroBuffer<float>(n);
    float *x_next = bench::zeroBuffer<float>(n);

    float *result = nullptr;
    float ms = bench::medianMsWithReset([&] { cudaMemset(x, 0, n * sizeof(float)); },
                                        [&] {
                                            float *x_old = x, *x_new = x_next;
                                            for (int sweep = 0; sweep < SWEEPS; sweep++) {
                                                jacobi_sweep<<<(n + 63) / 64, 64>>>(A, b, x_old, x_new, n);
                                                float *t = x_old;
                                                x_old = x_new;
                                                x_new = t;
                                            }
                                            result = x_old;
                                        });

    std::vector<float> hb = textbook::uniformHost(n, 192);
    std::vector<double> xo(n, 0.0), xn(n);
    for (int sweep = 0; sweep < SWEEPS; sweep++) {
        for (size_t i = 0; i < (size_t)n; i++) {
            double sigma = 0;
            for (size_t j = 0; j < (size_t)n; j++)
                if (j != i)
                    sigma += double(hA[i * n + j]) * xo[j];
            xn[i] = (hb[i] - sigma) / hA[i * n + i];
        }
        xo.swap(xn);
    }
    return bench::report(__FILE__, ms, textbook::checkAll(result, xo, 1e-3, 1e-7));
}
