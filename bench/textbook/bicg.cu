// class: linalg
// The two matrix-vector products of a BiCG step, s = A^T r and q = A p, as two 1-D
// kernels with the sizes as parameters: one thread per column for s, which writes
// `s[j] = s[j] + r[i] * A[i*ny+j]` into global memory, and one thread per row for q
// with a register sum and `++j`.
// Sizes: A is 7680 x 8448 (260 MB).
// Naive estimate on the H100: the column kernel is coalesced but has only 8448
// threads; the row kernel reads across rows: ~10-30 ms.
// Check: s and q in full against a double reference.
#include "textbook_util.h"

#define NX 7680
#define NY 8448
#define THREADS 128

#pragma kopt optimize launch(grid: (ny + THREADS - 1) / THREADS; block: THREADS) args(nx = NX, ny = NY) \
    buffers(A[nx * ny] in, r[nx] in, s[ny] out) tol(rtol = 1e-3, atol = 1e-3)
__global__ void bicg_kernel1(const float *A, const float *r, float *s, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        s[j] = 0.0f;
        for (int i = 0; i < nx; i++)
            s[j] = s[j] + r[i] * A[i * ny + j];
    }
}

#pragma kopt optimize launch(grid: (nx + THREADS - 1) / THREADS; block: THREADS) args(nx = NX, ny = NY) \
    buffers(A[nx * ny] in, p[ny] in, q[nx] out) tol(rtol = 1e-3, atol = 1e-3)
__global__ void bicg_kernel2(const float *A, const float *p, float *q, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        float sum = 0.0f;
        for (int j = 0; j < ny; ++j)
            sum += A[i * ny + j] * p[j];
        q[i] = sum;
    }
}

int main()
{
    int nx = NX, ny = NY;
    float *A = bench::uniformBuffer((size_t)nx * ny, 91);
    float *r = bench::uniformBuffer(nx, 92);
    float *p = bench::uniformBuffer(ny, 93);
    float *s = bench::deviceAlloc<float>(ny);
    float *q = bench::deviceAlloc<float>(nx);

    float ms = bench::medianMs([&] {
        bicg_kernel1<<<(ny + THREADS - 1) / THREADS, THREADS>>>(A, r, s, nx, ny);
        bicg_kernel2<<<(nx + THREADS - 1) / THREADS, THREADS>>>(A, p, q, nx, ny);
    });

    std::vector<float> hA = textbook::uniformHost((size_t)nx * ny, 91);
    std::vector<float> hr = textbook::uniformHost(nx, 92), hp = textbook::uniformHost(ny, 93);
    std::vector<double> sRef(ny, 0.0), qRef(nx, 0.0);
    for (size_t i = 0; i < (size_t)nx; i++)
        for (size_t j = 0; j < (size_t)ny; j++) {
            sRef[j] += double(hr[i]) * hA[i * ny + j];
            qRef[i] += double(hA[i * ny + j]) * hp[j];
        }
    return bench::report(__FILE__, ms,
                         bench::combine(textbook::checkAll(s, sRef, 1e-3, 1e-3),
                                        textbook::checkAll(q, qRef, 1e-3, 1e-3)));
}
