// class: linalg
// Two chained products, D = alpha * A * B * C + beta * D, in the manner of PolyBench's
// 2mm on the GPU: two kernels, tmp = alpha * A * B (zeroed, then accumulated in global
// memory) and D = beta * D + tmp * C (D *= beta first), flattened indices, macro sizes.
// Sizes: NI = 2048, NJ = 1920, NK = 2176, NL = 1792 (1.6e10 multiply-adds in all).
// Naive estimate on the H100: two global-accumulator products: ~50-80 ms.
// Check: 8 sampled rows of D in full; the reference recomputes the row of tmp each
// needs, in double.
#include "textbook_util.h"

#define NI 2048
#define NJ 1920
#define NK 2176
#define NL 1792

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

#pragma kopt optimize launch(grid: (NJ + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, \
    (NI + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y; block: DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y) \
    args(alpha = 1.25f) buffers(tmp[NI * NJ] out, A[NI * NK] in, B[NK * NJ] in) \
    tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void mm2_kernel1(float *tmp, float *A, float *B, float alpha)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NJ))
	{
		tmp[i * NJ + j] = 0;
		for (int k = 0; k < NK; k++)
		{
			tmp[i * NJ + j] += alpha * A[i * NK + k] * B[k * NJ + j];
		}
	}
}

#pragma kopt optimize launch(grid: (NL + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, \
    (NI + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y; block: DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y) \
    args(beta = 0.75f) buffers(tmp[NI * NJ] in, C[NJ * NL] in, D[NI * NL] inout) \
    tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void mm2_kernel2(float *tmp, float *C, float *D, float beta)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NL))
	{
		D[i * NL + j] *= beta;
		for (int k = 0; k < NJ; k++)
		{
			D[i * NL + j] += tmp[i * NJ + k] * C[k * NL + j];
		}
	}
}

int main()
{
	float alpha = 1.25f, beta = 0.75f;
	float *A = bench::uniformBuffer((size_t)NI * NK, 61);
	float *B = bench::uniformBuffer((size_t)NK * NJ, 62);
	float *C = bench::uniformBuffer((size_t)NJ * NL, 63);
	float *D = bench::uniformBuffer((size_t)NI * NL, 64);
	float *D_in = textbook::snapshot(D, (size_t)NI * NL);
	float *tmp = bench::deviceAlloc<float>((size_t)NI * NJ);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid1((NJ + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (NI + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
	dim3 grid2((NL + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (NI + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
	float ms = bench::medianMsWithReset([&] { textbook::restore(D, D_in, (size_t)NI * NL); },
	                                    [&] {
		                                    mm2_kernel1<<<grid1, block>>>(tmp, A, B, alpha);
		                                    mm2_kernel2<<<grid2, block>>>(tmp, C, D, beta);
	                                    });

	std::vector<float> hB = textbook::uniformHost((size_t)NK * NJ, 62);
	std::vector<float> hC = textbook::uniformHost((size_t)NJ * NL, 63);
	size_t row = (size_t)-1;
	std::vector<double> tmp_row(NJ);
	auto ref = [&](size_t idx) {
		size_t i = idx / NL, j = idx % NL;
		if (i != row) {
			row = i;
			std::fill(tmp_row.begin(), tmp_row.end(), 0.0);
			for (size_t k = 0; k < NK; k++) {
				double a = bench::uniformAt(61, i * NK + k);
				for (size_t jj = 0; jj < NJ; jj++)
					tmp_row[jj] += a * hB[k * NJ + jj];
			}
			for (size_t jj = 0; jj < NJ; jj++)
				tmp_row[jj] *= double(alpha);
		}
		double d = 0;
		for (size_t k = 0; k < NJ; k++)
			d += tmp_row[k] * hC[k * NL + j];
		return double(beta) * bench::uniformAt(64, idx) + d;
	};
	return bench::report(__FILE__, ms, bench::checkOutputAt(D, bench::sampleRows(NI, NL, 8), ref, 1e-3, 1e-3));
}
