// class: other
// Sparse matrix-vector product y = A x with A in CSR, in the manner of the scalar CSR
// kernel of GPU benchmark suites (SHOC's spmv "scalar"): one thread per row walks
// rowDelimiters[row] .. rowDelimiters[row + 1], gathering vec[cols[j]]; dim as a
// parameter.
// Sizes: 2097152 rows and columns, 32 nonzeros a row at random columns (6.7e7
// nonzeros; values and column indices 512 MB).
// Naive estimate on the H100: each thread reads its own 128-byte run of the row
// (uncoalesced across the warp) and gathers x at random: ~2-4 ms.
// Check: y in full against a double reference.
#include "textbook_util.h"

#define ROWS 2097152
#define NNZ_PER_ROW 32
#define BLOCK_SIZE 128

#pragma kopt optimize launch(grid: (dim + BLOCK_SIZE - 1) / BLOCK_SIZE; block: BLOCK_SIZE) args(dim = ROWS) \
    buffers(val[dim * NNZ_PER_ROW] in, cols[dim * NNZ_PER_ROW] in range(0, dim), \
            rowDelimiters[dim + 1] in range(NNZ_PER_ROW, NNZ_PER_ROW + 1), vec[dim] in, \
            out[dim] out) tol(rtol = 1e-4, atol = 1e-5) noalias
__global__ void spmv_csr_scalar_kernel(const float *val, const int *cols, const int *rowDelimiters,
                                       const float *vec, const int dim, float *out)
{
    int myRow = blockIdx.x * blockDim.x + threadIdx.x;

    if (myRow < dim)
    {
        float t = 0.0f;
        int start = rowDelimiters[myRow];
        int end = rowDelimiters[myRow + 1];
        for (int j = start; j < end; j++)
        {
            int col = cols[j];
            t += val[j] * vec[col];
        }
        out[myRow] = t;
    }
}

int main()
{
    const int dim = ROWS;
    const size_t nnz = (size_t)dim * NNZ_PER_ROW;
    float *d_val = bench::uniformBuffer(nnz, 331);
    int *d_cols = bench::intBuffer(nnz, 332, 0, dim);
    float *d_vec = bench::uniformBuffer(dim, 333);
    float *d_out = bench::deviceAlloc<float>(dim);
    std::vector<int> rowDelimiters(dim + 1);
    for (int i = 0; i <= dim; i++)
        rowDelimiters[i] = i * NNZ_PER_ROW;
    int *d_rowDelimiters = textbook::upload(rowDelimiters);

    int nBlocks = (dim + BLOCK_SIZE - 1) / BLOCK_SIZE;
    float ms = bench::medianMs(
        [&] { spmv_csr_scalar_kernel<<<nBlocks, BLOCK_SIZE>>>(d_val, d_cols, d_rowDelimiters, d_vec, dim, d_out); });

    std::vector<double> ref(dim, 0.0);
    for (size_t row = 0; row < (size_t)dim; row++)
        for (size_t j = row * NNZ_PER_ROW; j < (row + 1) * NNZ_PER_ROW; j++)
            ref[row] += double(bench::uniformAt(331, j)) * bench::uniformAt(333, bench::intAt(332, j, 0, dim));
    return bench::report(__FILE__, ms, textbook::checkAll(d_out, ref, 1e-4, 1e-5));
}
