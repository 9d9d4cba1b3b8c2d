// class: stencil
// 1-D Jacobi sweeps in the manner of PolyBench-GPU's jacobi-1d: per time step one kernel
// averages three neighbours of A into B and a second copies B back into A (interior
// points only, the guard `(i > 0) && (i < (N-1))`), both launched from a host loop;
// macro sizes, a float literal coefficient.
// Sizes: N = 8388608 (32 MB an array), TSTEPS = 100 (200 launches).
// Naive estimate on the H100: ~20 us a kernel plus launch latency: ~3-6 ms.
// Check: all of A against the same steps in double on the host.
#include "textbook_util.h"

#define N 8388608
#define TSTEPS 100

#define DIM_THREAD_BLOCK_X 256

#pragma kopt optimize launch(grid: (N + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X; block: DIM_THREAD_BLOCK_X) \
    buffers(A[N] in, B[N] inout) tol(rtol = 1e-5, atol = 1e-6)
__global__ void runJacobi1D_kernel1(float *A, float *B)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if ((i > 0) && (i < (N - 1)))
	{
		B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
	}
}

#pragma kopt optimize launch(grid: (N + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X; block: DIM_THREAD_BLOCK_X) \
    buffers(A[N] inout, B[N] in)
__global__ void runJacobi1D_kernel2(float *A, float *B)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if ((j > 0) && (j < (N - 1)))
	{
		A[j] = B[j];
	}
}

int main()
{
	float *A_gpu = bench::uniformBuffer(N, 241);
	float *B_gpu = bench::uniformBuffer(N, 242);
	float *A_init = textbook::snapshot(A_gpu, N), *B_init = textbook::snapshot(B_gpu, N);

	dim3 block(DIM_THREAD_BLOCK_X, 1);
	dim3 grid((N + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, 1);
	float ms = bench::medianMsWithReset(
		[&] {
			textbook::restore(A_gpu, A_init, N);
			textbook::restore(B_gpu, B_init, N);
		},
		[&] {
			for (int t = 0; t < TSTEPS; t++)
			{
				runJacobi1D_kernel1<<<grid, block>>>(A_gpu, B_gpu);
				runJacobi1D_kernel2<<<grid, block>>>(A_gpu, B_gpu);
			}
		});

	std::vector<double> A = textbook::widen(textbook::uniformHost(N, 241));
	std::vector<double> B = textbook::widen(textbook::uniformHost(N, 242));
	const double c = 0.33333f;
	for (int t = 0; t < TSTEPS; t++)
	{
		for (size_t i = 1; i < N - 1; i++)
			B[i] = c * (A[i - 1] + A[i] + A[i + 1]);
		for (size_t i = 1; i < N - 1; i++)
			A[i] = B[i];
	}
	return bench::report(__FILE__, ms,
	                     bench::combine(textbook::checkAll(A_gpu, A, 1e-4, 1e-5), textbook::checkAll(B_gpu, B, 1e-4, 1e-5)));
}
