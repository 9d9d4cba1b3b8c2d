// class: linalg
// Matrix-vector products in both orientations, x1 += A y1 and x2 += A^T y2, in the manner
// of PolyBench-GPU's mvt: one thread per i in both kernels, each accumulating into its
// global x element; the first reads A along rows (a[i*N+j], uncoalesced across the
// warp), the second down columns (a[j*N+i], coalesced).
// Sizes: N = 8192 (A is 256 MB).
// Naive estimate on the H100: 8192 threads a kernel, each a loop of 8192 loads and a
// global read-modify-write per step: ~10-30 ms.
// Check: x1 and x2 in full against a double reference.
#include "textbook_util.h"

#define N 8192
#define DIM_THREAD_BLOCK_X 256

#pragma kopt optimize launch(grid: (N + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X; block: DIM_THREAD_BLOCK_X) \
    buffers(a[N * N] in, x1[N] inout, y_1[N] in) tol(rtol = 1e-3, atol = 1e-3)
__global__ void mvt_kernel1(float *a, float *x1, float *y_1)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < N)
	{
		int j;
		for (j = 0; j < N; j++)
		{
			x1[i] += a[i * N + j] * y_1[j];
		}
	}
}

#pragma kopt optimize launch(grid: (N + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X; block: DIM_THREAD_BLOCK_X) \
    buffers(a[N * N] in, x2[N] inout, y_2[N] in) tol(rtol = 1e-3, atol = 1e-3)
__global__ void mvt_kernel2(float *a, float *x2, float *y_2)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < N)
	{
		int j;
		for (j = 0; j < N; j++)
		{
			x2[i] += a[j * N + i] * y_2[j];
		}
	}
}

int main()
{
	float *a = bench::uniformBuffer((size_t)N * N, 101);
	float *x1 = bench::uniformBuffer(N, 102);
	float *x2 = bench::uniformBuffer(N, 103);
	float *y_1 = bench::uniformBuffer(N, 104);
	float *y_2 = bench::uniformBuffer(N, 105);
	float *x1_in = textbook::snapshot(x1, N), *x2_in = textbook::snapshot(x2, N);

	dim3 block(DIM_THREAD_BLOCK_X);
	dim3 grid((N + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X);
	float ms = bench::medianMsWithReset(
		[&] {
			textbook::restore(x1, x1_in, N);
			textbook::restore(x2, x2_in, N);
		},
		[&] {
			mvt_kernel1<<<grid, block>>>(a, x1, y_1);
			mvt_kernel2<<<grid, block>>>(a, x2, y_2);
		});

	std::vector<float> hA = textbook::uniformHost((size_t)N * N, 101);
	std::vector<double> r1 = textbook::widen(textbook::uniformHost(N, 102));
	std::vector<double> r2 = textbook::widen(textbook::uniformHost(N, 103));
	std::vector<float> hy1 = textbook::uniformHost(N, 104), hy2 = textbook::uniformHost(N, 105);
	for (size_t i = 0; i < N; i++)
		for (size_t j = 0; j < N; j++) {
			r1[i] += double(hA[i * N + j]) * hy1[j];
			r2[j] += double(hA[i * N + j]) * hy2[i];
		}
	return bench::report(__FILE__, ms,
	                     bench::combine(textbook::checkAll(x1, r1, 1e-3, 1e-3), textbook::checkAll(x2, r2, 1e-3, 1e-3)));
}
