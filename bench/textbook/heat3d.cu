// class: stencil
// 3-D heat equation (7-point, explicit) in the manner of PolyBench's heat-3d moved to the
// GPU: 3-D array parameters with a macro size (DATA_TYPE A[N][N][N]), one thread per
// interior point on a 3-D grid (k from x, j from y, i from z), and each time step two
// launches of the same kernel, A -> B then B -> A.
// Sizes: N = 256 (64 MB an array), TSTEPS = 20 (40 sweeps).
// Naive estimate on the H100: ~50 us a sweep: ~2-3 ms.
// Check: A and B in full against the same steps in double on the host.
#include "textbook_util.h"

#define N 256
#define TSTEPS 20
#define DATA_TYPE float

#pragma kopt optimize launch(grid: (N + 31) / 32, (N + 3) / 4, (N + 1) / 2; block: 32, 4, 2) \
    buffers(A[N * N * N] in, B[N * N * N] inout) noalias tol(rtol = 1e-5, atol = 1e-6)
__global__ void heat3d_kernel(DATA_TYPE A[N][N][N], DATA_TYPE B[N][N][N])
{
	int k = blockIdx.x * blockDim.x + threadIdx.x;
	int j = blockIdx.y * blockDim.y + threadIdx.y;
	int i = blockIdx.z * blockDim.z + threadIdx.z;

	if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1)
	{
		B[i][j][k] = 0.125f * (A[i + 1][j][k] - 2.0f * A[i][j][k] + A[i - 1][j][k])
		           + 0.125f * (A[i][j + 1][k] - 2.0f * A[i][j][k] + A[i][j - 1][k])
		           + 0.125f * (A[i][j][k + 1] - 2.0f * A[i][j][k] + A[i][j][k - 1])
		           + A[i][j][k];
	}
}

int main()
{
	size_t total = (size_t)N * N * N;
	DATA_TYPE *A_gpu = bench::uniformBuffer(total, 261);
	DATA_TYPE *B_gpu = textbook::snapshot(A_gpu, total);
	DATA_TYPE *A_init = textbook::snapshot(A_gpu, total);
	DATA_TYPE (*A)[N][N] = (DATA_TYPE (*)[N][N])A_gpu;
	DATA_TYPE (*B)[N][N] = (DATA_TYPE (*)[N][N])B_gpu;

	dim3 block(32, 4, 2);
	dim3 grid((N + 31) / 32, (N + 3) / 4, (N + 1) / 2);
	float ms = bench::medianMsWithReset(
		[&] {
			textbook::restore(A_gpu, A_init, total);
			textbook::restore(B_gpu, A_init, total);
		},
		[&] {
			for (int t = 1; t <= TSTEPS; t++)
			{
				heat3d_kernel<<<grid, block>>>(A, B);
				heat3d_kernel<<<grid, block>>>(B, A);
			}
		});

	std::vector<double> a = textbook::widen(textbook::uniformHost(total, 261)), b = a;
	auto sweep = [](const std::vector<double> &in, std::vector<double> &out) {
		const double c = 0.125f;
		for (size_t i = 1; i + 1 < N; i++)
			for (size_t j = 1; j + 1 < N; j++)
				for (size_t k = 1; k + 1 < N; k++)
				{
					size_t x = (i * N + j) * N + k;
					out[x] = c * (in[x + N * N] - 2.0 * in[x] + in[x - N * N]) + c * (in[x + N] - 2.0 * in[x] + in[x - N]) +
					         c * (in[x + 1] - 2.0 * in[x] + in[x - 1]) + in[x];
				}
	};
	for (int t = 1; t <= TSTEPS; t++)
	{
		sweep(a, b);
		sweep(b, a);
	}
	return bench::report(__FILE__, ms,
	                     bench::combine(textbook::checkAll(A_gpu, a, 1e-4, 1e-5), textbook::checkAll(B_gpu, b, 1e-4, 1e-5)));
}
