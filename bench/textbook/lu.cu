// class: solver
// LU decomposition without pivoting, right-looking, in the manner of the PolyBench-GPU lu:
// a host loop over k launches a 1-D kernel that scales row k by the pivot and a 2-D
// kernel that updates the trailing (n-k-1)^2 block, whose grid shrinks with k; k and n
// are scalar parameters and the row/column offsets k+1 are added to the thread index.
// The factors overwrite A (L with its diagonal below, U with a unit diagonal above).
// Sizes: n = 2048 (2048 steps, 4094 launches, 5.7e9 flops; A is 16 MB and stays in L2).
// Naive estimate on the H100: ~20-40 ms, much of it launch latency of the late, small
// steps.
// Check: all of A against the same elimination in double on the host, from the same
// diagonally dominant float input.
#include "textbook_util.h"

#define N 2048

#pragma kopt optimize launch(grid: (n - k - 1 + 255) / 256; block: 256) args(k = 0, n = N) \
    buffers(A[n * n] inout) tol(rtol = 1e-3, atol = 1e-5)
__global__ void lu_kernel1(float *A, int k, int n)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x + k + 1;

	if (j < n)
	{
		A[k * n + j] = A[k * n + j] / A[k * n + k];
	}
}

#pragma kopt optimize launch(grid: (n - k - 1 + 31) / 32, (n - k - 1 + 7) / 8; block: 32, 8) \
    args(k = 0, n = N) buffers(A[n * n] inout) tol(rtol = 1e-3, atol = 1e-5)
__global__ void lu_kernel2(float *A, int k, int n)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x + k + 1;
	int i = blockIdx.y * blockDim.y + threadIdx.y + k + 1;

	if ((i < n) && (j < n))
	{
		A[i * n + j] = A[i * n + j] - A[i * n + k] * A[k * n + j];
	}
}

int main()
{
	int n = N;
	std::vector<float> A0 = textbook::diagonallyDominant(n, 161);
	float *A_gpu = textbook::upload(A0);
	float *A_start = textbook::snapshot(A_gpu, (size_t)n * n);

	dim3 block1(256), block2(32, 8);
	float ms = bench::medianMsWithReset(
		[&] { textbook::restore(A_gpu, A_start, (size_t)n * n); },
		[&] {
			for (int k = 0; k < n - 1; k++)
			{
				dim3 grid1((n - k - 1 + 255) / 256);
				dim3 grid2((n - k - 1 + 31) / 32, (n - k - 1 + 7) / 8);
				lu_kernel1<<<grid1, block1>>>(A_gpu, k, n);
				lu_kernel2<<<grid2, block2>>>(A_gpu, k, n);
			}
		},
		1, 7);

	std::vector<double> a = textbook::widen(A0);
	for (size_t k = 0; k + 1 < (size_t)n; k++)
	{
		for (size_t j = k + 1; j < (size_t)n; j++)
			a[k * n + j] /= a[k * n + k];
		for (size_t i = k + 1; i < (size_t)n; i++)
			for (size_t j = k + 1; j < (size_t)n; j++)
				a[i * n + j] -= a[i * n + k] * a[k * n + j];
	}
	return bench::report(__FILE__, ms, textbook::checkAll(A_gpu, a, 1e-3, 1e-5));
}
