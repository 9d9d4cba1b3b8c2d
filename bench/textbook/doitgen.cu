// class: linalg
// Multiresolution kernel (PolyBench's doitgen) in the manner of its GPU port: for each r,
// launched from a host loop with r as the scalar, sum[r][q][p] = sum_s A[r][q][s] *
// C4[s][p] accumulated in global memory, then copied back into A by a second kernel; a
// batched product whose batch is a host loop; 3-D indices flattened by hand.
// Sizes: NR = 256, NQ = 224, NP = 240 (3.3e9 multiply-adds, 512 launches).
// Naive estimate on the H100: ~5-10 ms.
// Check: 4096 sampled elements of A and of sum recomputed in double.
#include "textbook_util.h"

#define NR 256
#define NQ 224
#define NP 240

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

#pragma kopt optimize launch(grid: (NP + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, \
    (NQ + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y; block: DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y) \
    args(r = NR / 2) buffers(sum[NR * NQ * NP] inout, A[NR * NQ * NP] in, C4[NP * NP] in) \
    tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void doitgen_kernel1(float *sum, float *A, float *C4, int r)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	int q = blockIdx.y * blockDim.y + threadIdx.y;

	if ((p < NP) && (q < NQ))
	{
		sum[r * (NQ * NP) + q * NP + p] = (float)0.0;

		for (int s = 0; s < NP; s++)
		{
			sum[r * (NQ * NP) + q * NP + p] = sum[r * (NQ * NP) + q * NP + p] + A[r * (NQ * NP) + q * NP + s] * C4[s * NP + p];
		}
	}
}

#pragma kopt optimize launch(grid: (NP + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, \
    (NQ + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y; block: DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y) \
    args(r = NR / 2) buffers(sum[NR * NQ * NP] in, A[NR * NQ * NP] inout) noalias
__global__ void doitgen_kernel2(float *sum, float *A, int r)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	int q = blockIdx.y * blockDim.y + threadIdx.y;

	if ((p < NP) && (q < NQ))
	{
		A[r * (NQ * NP) + q * NP + p] = sum[r * (NQ * NP) + q * NP + p];
	}
}

int main()
{
	size_t total = (size_t)NR * NQ * NP;
	float *A_gpu = bench::uniformBuffer(total, 141);
	float *C4_gpu = bench::uniformBuffer((size_t)NP * NP, 142);
	float *sum_gpu = bench::deviceAlloc<float>(total);
	float *A_start = textbook::snapshot(A_gpu, total);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((NP + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (NQ + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
	float ms = bench::medianMsWithReset([&] { textbook::restore(A_gpu, A_start, total); },
	                                    [&] {
		                                    for (int r = 0; r < NR; r++)
		                                    {
			                                    doitgen_kernel1<<<grid, block>>>(sum_gpu, A_gpu, C4_gpu, r);
			                                    doitgen_kernel2<<<grid, block>>>(sum_gpu, A_gpu, r);
		                                    }
	                                    });

	// Every (r, q) row of A only reads itself, so A's and sum's element (r, q, p) is
	// sum_s A0[r][q][s] * C4[s][p].
	auto ref = [](size_t idx) {
		size_t rq = idx / NP, p = idx % NP;
		double s = 0;
		for (size_t k = 0; k < NP; k++)
			s += double(bench::uniformAt(141, rq * NP + k)) * bench::uniformAt(142, k * NP + p);
		return s;
	};
	return bench::report(__FILE__, ms,
	                     bench::combine(bench::checkOutput(A_gpu, total, 4096, ref, 1e-3, 1e-3),
	                                    bench::checkOutput(sum_gpu, total, 4096, ref, 1e-3, 1e-3)));
}
