// class: stencil
// 3 x 3 convolution with fixed coefficients in the manner of PolyBench-GPU's
// 2DConvolution: the nine coefficients are locals c11..c33 of the kernel, i from y and j
// from x, the guard `(i < NI-1) && (j < NJ-1) && (i > 0) && (j > 0)`, and the host's grid
// spelled (size_t)ceil(((float)NJ) / ((float)block.x)), copied into the pragma as is.
// Sizes: 16384 x 24576 (1.5 GB an image).
// Naive estimate on the H100: one read and one write of each image: ~1-1.5 ms.
// Check: 4096 sampled points recomputed in double (the border stays zero).
#include "textbook_util.h"
#include <math.h>

#define NI 16384
#define NJ 24576

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

#pragma kopt optimize launch(grid: (size_t)ceil(((float)NJ) / ((float)DIM_THREAD_BLOCK_X)), \
    (size_t)ceil(((float)NI) / ((float)DIM_THREAD_BLOCK_Y)); block: DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y) \
    buffers(A[NI * NJ] in, B[NI * NJ] out) tol(rtol = 1e-5, atol = 1e-6)
__global__ void Convolution2D_kernel(float *A, float *B)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	float c11, c12, c13, c21, c22, c23, c31, c32, c33;

	c11 = +0.1f;  c21 = -0.3f;  c31 = +0.7f;
	c12 = +0.25f; c22 = +0.5f;  c32 = -0.6f;
	c13 = -0.4f;  c23 = +0.8f;  c33 = +0.15f;

	if ((i < NI - 1) && (j < NJ - 1) && (i > 0) && (j > 0))
	{
		B[i * NJ + j] = c11 * A[(i - 1) * NJ + (j - 1)] + c21 * A[(i - 1) * NJ + (j + 0)] + c31 * A[(i - 1) * NJ + (j + 1)]
			+ c12 * A[(i + 0) * NJ + (j - 1)] + c22 * A[(i + 0) * NJ + (j + 0)] + c32 * A[(i + 0) * NJ + (j + 1)]
			+ c13 * A[(i + 1) * NJ + (j - 1)] + c23 * A[(i + 1) * NJ + (j + 0)] + c33 * A[(i + 1) * NJ + (j + 1)];
	}
}

int main()
{
	size_t n = (size_t)NI * NJ;
	float *A_gpu = bench::uniformBuffer(n, 281);
	float *B_gpu = bench::zeroBuffer<float>(n);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)ceil(((float)NJ) / ((float)block.x)), (size_t)ceil(((float)NI) / ((float)block.y)));
	float ms = bench::medianMs([&] { Convolution2D_kernel<<<grid, block>>>(A_gpu, B_gpu); });

	// Taps by row offset (-1, 0, +1) and column offset (-1, 0, +1).
	const double c[3][3] = {{0.1f, -0.3f, 0.7f}, {0.25f, 0.5f, -0.6f}, {-0.4f, 0.8f, 0.15f}};
	auto ref = [&](size_t idx) {
		size_t i = idx / NJ, j = idx % NJ;
		if (i == 0 || j == 0 || i == NI - 1 || j == NJ - 1)
			return 0.0; // The border is never written: it keeps the zeros it started with.
		double s = 0;
		for (int di = -1; di <= 1; di++)
			for (int dj = -1; dj <= 1; dj++)
				s += c[di + 1][dj + 1] * bench::uniformAt(281, (i + di) * NJ + (j + dj));
		return s;
	};
	return bench::report(__FILE__, ms, bench::checkOutput(B_gpu, n, 4096, ref, 1e-4, 1e-5));
}
