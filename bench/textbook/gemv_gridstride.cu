// class: linalg
// y = A x and z = A^T y in the style of code written to run on any grid (NVIDIA's
// "grid-stride loops" advice, library kernels): each kernel walks its range with a
// grid-stride loop over a grid sized from the device (4 blocks of 256 a multiprocessor),
// size_t sizes, __restrict__ pointers, the row kernel reading its row through a pointer.
// Sizes: A is 8192 x 8192 (256 MB).
// Naive estimate on the H100: the row kernel reads A across rows (uncoalesced) with
// 135k threads taking 8192 rows, the column kernel coalesced: ~10-20 ms.
// Check: y and z in full against a double reference.
#include "textbook_util.h"

#define ROWS 8192
#define COLS 8192
#define THREADS 256
#define GRID (132 * 4)

#pragma kopt optimize launch(grid: GRID; block: THREADS) args(rows = ROWS, cols = COLS) \
    buffers(A[rows * cols] in, x[cols] in, y[rows] out) tol(rtol = 1e-3, atol = 1e-3)
__global__ void gemv_rows(size_t rows, size_t cols, const float *__restrict__ A,
                          const float *__restrict__ x, float *__restrict__ y)
{
    for (size_t r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x) {
        const float *row = A + r * cols;
        float acc = 0.0f;
        for (size_t c = 0; c < cols; ++c)
            acc += row[c] * x[c];
        y[r] = acc;
    }
}

#pragma kopt optimize launch(grid: GRID; block: THREADS) args(rows = ROWS, cols = COLS) \
    buffers(A[rows * cols] in, y[rows] in, z[cols] out) tol(rtol = 1e-3, atol = 1e-2)
__global__ void gemv_cols(size_t rows, size_t cols, const float *__restrict__ A,
                          const float *__restrict__ y, float *__restrict__ z)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t c = blockIdx.x * blockDim.x + threadIdx.x; c < cols; c += stride) {
        float acc = 0.0f;
        for (size_t r = 0; r < rows; ++r)
            acc += A[r * cols + c] * y[r];
        z[c] = acc;
    }
}

int main()
{
    float *A = bench::uniformBuffer((size_t)ROWS * COLS, 301);
    float *x = bench::uniformBuffer(COLS, 302);
    float *y = bench::deviceAlloc<float>(ROWS);
    float *z = bench::deviceAlloc<float>(COLS);
    float ms = bench::medianMs([&] {
        gemv_rows<<<GRID, THREADS>>>(ROWS, COLS, A, x, y);
        gemv_cols<<<GRID, THREADS>>>(ROWS, COLS, A, y, z);
    });

    std::vector<float> hA = textbook::uniformHost((size_t)ROWS * COLS, 301);
    std::vector<float> hx = textbook::uniformHost(COLS, 302);
    std::vector<double> ry(ROWS, 0.0), rz(COLS, 0.0);
    for (size_t r = 0; r < ROWS; r++)
        for (size_t c = 0; c < COLS; c++)
            ry[r] += double(hA[r * COLS + c]) * hx[c];
    for (size_t r = 0; r < ROWS; r++)
        for (size_t c = 0; c < COLS; c++)
            rz[c] += double(hA[r * COLS + c]) * ry[r];
    return bench::report(__FILE__, ms,
                         bench::combine(textbook::checkAll(y, ry, 1e-3, 1e-3),
                                        textbook::checkAll(z, rz, 1e-3, 1e-2)));
}
