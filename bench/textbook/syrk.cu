// class: linalg
// Symmetric rank-k update C = alpha * A * A^T + beta * C in the manner of a PolyBench C
// kernel moved to CUDA: 2-D array parameters with macro sizes (DATA_TYPE A[N][M]), the
// accumulator in global memory (C[i][j] *= beta; C[i][j] += alpha * A[i][k] * A[j][k]),
// the full square computed, j from x and i from y.
// Sizes: N = 2048, M = 1024 (4.3e9 multiply-adds).
// Naive estimate on the H100: A[j][k] is read down a column across the warp and C is
// loaded and stored every step: ~30-50 ms.
// Check: 2048 sampled elements of C recomputed in double.
#include "textbook_util.h"

#define N 2048
#define M 1024
#define DATA_TYPE float

#pragma kopt optimize launch(grid: (N + 31) / 32, (N + 7) / 8; block: 32, 8) \
    args(alpha = 0.25f, beta = 2.0f) buffers(A[N * M] in, C[N * N] inout) noalias tol(rtol = 1e-3, atol = 1e-3)
__global__ void syrk_kernel(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE A[N][M], DATA_TYPE C[N][N])
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < N) && (j < N))
	{
		C[i][j] *= beta;

		for (int k = 0; k < M; k++)
		{
			C[i][j] += alpha * A[i][k] * A[j][k];
		}
	}
}

int main()
{
	DATA_TYPE alpha = 0.25f, beta = 2.0f;
	DATA_TYPE *A_gpu = bench::uniformBuffer((size_t)N * M, 41);
	DATA_TYPE *C_gpu = bench::uniformBuffer((size_t)N * N, 42);
	DATA_TYPE *C_start = textbook::snapshot(C_gpu, (size_t)N * N);

	dim3 block(32, 8);
	dim3 grid((N + 31) / 32, (N + 7) / 8);
	float ms = bench::medianMsWithReset(
		[&] { textbook::restore(C_gpu, C_start, (size_t)N * N); },
		[&] { syrk_kernel<<<grid, block>>>(alpha, beta, (DATA_TYPE(*)[M])A_gpu, (DATA_TYPE(*)[N])C_gpu); });

	auto ref = [&](size_t idx) {
		size_t i = idx / N, j = idx % N;
		double sum = 0;
		for (size_t k = 0; k < M; k++)
			sum += double(bench::uniformAt(41, i * M + k)) * bench::uniformAt(41, j * M + k);
		return double(alpha) * sum + double(beta) * bench::uniformAt(42, idx);
	};
	return bench::report(__FILE__, ms, bench::checkOutput(C_gpu, (size_t)N * N, 2048, ref, 1e-3, 1e-3));
}
