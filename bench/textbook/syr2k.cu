// class: linalg
// Symmetric rank-2k update C = alpha * A * B^T + alpha * B * A^T + beta * C in the manner
// of the PolyBench-GPU kernels: flattened indices with macro sizes, alpha and beta as
// macros inside the kernel (no scalar parameters), both products in one global
// accumulator statement, `c[...] *= BETA` first.
// Sizes: N = 2048, M = 768 (6.4e9 multiply-adds).
// Naive estimate on the H100: four operand streams, two of them read down columns, and
// C loaded and stored every step: ~40-70 ms.
// Check: 2048 sampled elements of C recomputed in double.
#include "textbook_util.h"

#define N 2048
#define M 768

#define ALPHA 12435.0f / 100000.0f
#define BETA 4546.0f / 10000.0f

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

#pragma kopt optimize launch(grid: (N + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, \
    (N + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y; block: DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y) \
    buffers(a[N * M] in, b[N * M] in, c[N * N] inout) tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void syr2k_kernel(float *a, float *b, float *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < N) && (j < N))
	{
		c[i * N + j] *= BETA;

		int k;
		for (k = 0; k < M; k++)
		{
			c[i * N + j] += ALPHA * a[i * M + k] * b[j * M + k] + ALPHA * b[i * M + k] * a[j * M + k];
		}
	}
}

int main()
{
	float *a = bench::uniformBuffer((size_t)N * M, 51);
	float *b = bench::uniformBuffer((size_t)N * M, 52);
	float *c = bench::uniformBuffer((size_t)N * N, 53);
	float *c_in = textbook::snapshot(c, (size_t)N * N);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((N + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (N + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
	float ms = bench::medianMsWithReset([&] { textbook::restore(c, c_in, (size_t)N * N); },
	                                    [&] { syr2k_kernel<<<grid, block>>>(a, b, c); });

	auto ref = [](size_t idx) {
		size_t i = idx / N, j = idx % N;
		double sum = 0;
		for (size_t k = 0; k < M; k++)
			sum += double(bench::uniformAt(51, i * M + k)) * bench::uniformAt(52, j * M + k) +
			       double(bench::uniformAt(52, i * M + k)) * bench::uniformAt(51, j * M + k);
		return double(ALPHA) * sum + double(BETA) * bench::uniformAt(53, idx);
	};
	return bench::report(__FILE__, ms, bench::checkOutput(c, (size_t)N * N, 2048, ref, 1e-3, 1e-3));
}
