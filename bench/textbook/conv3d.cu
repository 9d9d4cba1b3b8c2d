// class: stencil
// 3-D convolution with fixed coefficients in the manner of PolyBench-GPU's 3DConvolution:
// a 2-D kernel over (j, k) launched from a host loop over the planes i (i is a scalar
// parameter), k from x and j from y, 3-D indices flattened by hand, eleven taps of a
// 3 x 3 x 3 neighbourhood (centre, faces and two diagonals), the six-sided guard.
// Sizes: 512 x 528 x 544 (590 MB a volume), 510 launches.
// Naive estimate on the H100: ~0.4 ms of traffic plus 510 launches: ~2-3 ms.
// Check: 4096 sampled points recomputed in double (the border stays zero).
#include "textbook_util.h"

#define NI 512
#define NJ 528
#define NK 544

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

#pragma kopt optimize launch(grid: (NK + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, \
    (NJ + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y; block: DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y) \
    args(i = NI / 2) buffers(A[NI * NJ * NK] in, B[NI * NJ * NK] inout) tol(rtol = 1e-5, atol = 1e-6)
__global__ void convolution3D_kernel(float *A, float *B, int i)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x;
	int j = blockIdx.y * blockDim.y + threadIdx.y;

	float c0, c1, c2, c3, c4, c5;
	c0 = +0.5f;
	c1 = -0.15f;
	c2 = +0.3f;
	c3 = -0.45f;
	c4 = +0.2f;
	c5 = +0.05f;

	if ((i < (NI - 1)) && (j < (NJ - 1)) && (k < (NK - 1)) && (i > 0) && (j > 0) && (k > 0))
	{
		B[i * (NK * NJ) + j * NK + k] = c0 * A[i * (NK * NJ) + j * NK + k]
			+ c1 * (A[(i - 1) * (NK * NJ) + j * NK + k] + A[(i + 1) * (NK * NJ) + j * NK + k])
			+ c2 * (A[i * (NK * NJ) + (j - 1) * NK + k] + A[i * (NK * NJ) + (j + 1) * NK + k])
			+ c3 * (A[i * (NK * NJ) + j * NK + (k - 1)] + A[i * (NK * NJ) + j * NK + (k + 1)])
			+ c4 * (A[(i - 1) * (NK * NJ) + (j - 1) * NK + (k - 1)] + A[(i + 1) * (NK * NJ) + (j + 1) * NK + (k + 1)])
			+ c5 * (A[(i - 1) * (NK * NJ) + (j + 1) * NK + (k - 1)] + A[(i + 1) * (NK * NJ) + (j - 1) * NK + (k + 1)]);
	}
}

int main()
{
	size_t n = (size_t)NI * NJ * NK;
	float *A_gpu = bench::uniformBuffer(n, 291);
	float *B_gpu = bench::zeroBuffer<float>(n);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((NK + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (NJ + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
	float ms = bench::medianMs([&] {
		int i;
		for (i = 1; i < NI - 1; ++i)
		{
			convolution3D_kernel<<<grid, block>>>(A_gpu, B_gpu, i);
		}
	});

	auto a = [](long i, long j, long k) -> double { return bench::uniformAt(291, (size_t)((i * NJ + j) * NK + k)); };
	auto ref = [&](size_t idx) {
		long i = idx / ((size_t)NJ * NK), j = idx / NK % NJ, k = idx % NK;
		if (i == 0 || j == 0 || k == 0 || i == NI - 1 || j == NJ - 1 || k == NK - 1)
			return 0.0;
		return double(0.5f) * a(i, j, k) + double(-0.15f) * (a(i - 1, j, k) + a(i + 1, j, k)) +
		       double(0.3f) * (a(i, j - 1, k) + a(i, j + 1, k)) + double(-0.45f) * (a(i, j, k - 1) + a(i, j, k + 1)) +
		       double(0.2f) * (a(i - 1, j - 1, k - 1) + a(i + 1, j + 1, k + 1)) +
		       double(0.05f) * (a(i - 1, j + 1, k - 1) + a(i + 1, j - 1, k + 1));
	};
	return bench::report(__FILE__, ms, bench::checkOutput(B_gpu, n, 4096, ref, 1e-4, 1e-5));
}
