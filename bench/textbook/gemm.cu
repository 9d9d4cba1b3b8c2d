// class: linalg
// gemm in the PolyBench-GPU manner: C = alpha * A * B + beta * C, the accumulator in
// global memory (C *= beta, then C += alpha * A * B term by term), DATA_TYPE a macro,
// sizes as macros, j from x and i from y, an if-block guard.
// Sizes: NI = NJ = NK = 4096 (issue 14's cuBLAS reference is 2.70 ms for this product).
// Naive estimate on the H100: the same product with a register accumulator takes about
// 26 ms (bench/kernels/matmul_square); the load and store of C in every k step makes it
// 3-4x slower: ~90 ms.
// Check: 2048 sampled elements of C recomputed in double.
#include "textbook_util.h"

#define NI 4096
#define NJ 4096
#define NK 4096

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

#define DATA_TYPE float
#define ALPHA 1.5f
#define BETA 1.2f

#pragma kopt optimize launch(grid: (NJ + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, \
    (NI + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y; block: DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y) \
    args(alpha = ALPHA, beta = BETA) buffers(a[NI * NK] in, b[NK * NJ] in, c[NI * NJ] inout) \
    tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void gemm_kernel(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NJ))
	{
		c[i * NJ + j] *= beta;
		int k;
		for (k = 0; k < NK; k++)
		{
			c[i * NJ + j] += alpha * a[i * NK + k] * b[k * NJ + j];
		}
	}
}

int main()
{
	DATA_TYPE *A_gpu = bench::uniformBuffer((size_t)NI * NK, 1);
	DATA_TYPE *B_gpu = bench::uniformBuffer((size_t)NK * NJ, 2);
	DATA_TYPE *C_gpu = bench::uniformBuffer((size_t)NI * NJ, 3);
	DATA_TYPE *C_init = textbook::snapshot(C_gpu, (size_t)NI * NJ);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((NJ + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (NI + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
	float ms = bench::medianMsWithReset([&] { textbook::restore(C_gpu, C_init, (size_t)NI * NJ); },
	                                    [&] { gemm_kernel<<<grid, block>>>(ALPHA, BETA, A_gpu, B_gpu, C_gpu); });

	auto ref = [](size_t idx) {
		size_t i = idx / NJ, j = idx % NJ;
		double sum = 0;
		for (size_t k = 0; k < NK; k++)
			sum += double(bench::uniformAt(1, i * NK + k)) * bench::uniformAt(2, k * NJ + j);
		return double(ALPHA) * sum + double(BETA) * bench::uniformAt(3, idx);
	};
	return bench::report(__FILE__, ms, bench::checkOutput(C_gpu, (size_t)NI * NJ, 2048, ref, 1e-3, 1e-3));
}
