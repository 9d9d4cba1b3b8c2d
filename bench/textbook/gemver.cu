// class: linalg
// gemver in the manner of PolyBench-GPU: a rank-2 update A = A + u1 v1^T + u2 v2^T (2-D
// grid), then x = x + beta * A^T y + z (one thread per column of A, coalesced), then
// w = w + alpha * A x (one thread per row, uncoalesced), each vector accumulated in
// global memory with the `x[i] = x[i] + ...` spelling; n is a parameter.
// Sizes: n = 8192 (A is 256 MB).
// Naive estimate on the H100: the update ~0.2 ms, the two matrix-vector kernels with
// 8192 threads each ~5-15 ms.
// Check: A (4096 sampled elements), x and w in full, against a double reference.
#include "textbook_util.h"

#define SIZE 8192

#pragma kopt optimize launch(grid: (n + 31) / 32, (n + 7) / 8; block: 32, 8) args(n = SIZE) \
    buffers(A[n * n] inout, u1[n] in, v1[n] in, u2[n] in, v2[n] in) noalias
__global__ void gemver_kernel1(int n, float *A, float *u1, float *v1, float *u2, float *v2)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < n) && (j < n))
	{
		A[i * n + j] = A[i * n + j] + u1[i] * v1[j] + u2[i] * v2[j];
	}
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = SIZE, beta = 0.5f) \
    buffers(A[n * n] in, x[n] inout, y[n] in, z[n] in) tol(rtol = 1e-3, atol = 1e-3)
__global__ void gemver_kernel2(int n, float beta, float *A, float *x, float *y, float *z)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
	{
		int j;
		for (j = 0; j < n; j++)
		{
			x[i] = x[i] + beta * A[j * n + i] * y[j];
		}
		x[i] = x[i] + z[i];
	}
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = SIZE, alpha = 1.5f) \
    buffers(A[n * n] in, x[n] in, w[n] inout) tol(rtol = 1e-3, atol = 1e-3)
__global__ void gemver_kernel3(int n, float alpha, float *A, float *x, float *w)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
	{
		int j;
		for (j = 0; j < n; j++)
		{
			w[i] = w[i] + alpha * A[i * n + j] * x[j];
		}
	}
}

int main()
{
	int n = SIZE;
	float alpha = 1.5f, beta = 0.5f;
	float *A = bench::uniformBuffer((size_t)n * n, 121);
	float *u1 = bench::uniformBuffer(n, 122), *v1 = bench::uniformBuffer(n, 123);
	float *u2 = bench::uniformBuffer(n, 124), *v2 = bench::uniformBuffer(n, 125);
	float *x = bench::uniformBuffer(n, 126), *y = bench::uniformBuffer(n, 127);
	float *z = bench::uniformBuffer(n, 128), *w = bench::uniformBuffer(n, 129);
	float *A_in = textbook::snapshot(A, (size_t)n * n);
	float *x_in = textbook::snapshot(x, n), *w_in = textbook::snapshot(w, n);

	dim3 block1(32, 8), grid1((n + 31) / 32, (n + 7) / 8);
	dim3 block2(256), grid2((n + 255) / 256);
	float ms = bench::medianMsWithReset(
		[&] {
			textbook::restore(A, A_in, (size_t)n * n);
			textbook::restore(x, x_in, n);
			textbook::restore(w, w_in, n);
		},
		[&] {
			gemver_kernel1<<<grid1, block1>>>(n, A, u1, v1, u2, v2);
			gemver_kernel2<<<grid2, block2>>>(n, beta, A, x, y, z);
			gemver_kernel3<<<grid2, block2>>>(n, alpha, A, x, w);
		});

	// The reference: the update, then both products, in double. w (magnitude ~2000, sums
	// of 8192 terms) gets an absolute tolerance of 0.1 for float rounding.
	std::vector<float> hu1 = textbook::uniformHost(n, 122), hv1 = textbook::uniformHost(n, 123);
	std::vector<float> hu2 = textbook::uniformHost(n, 124), hv2 = textbook::uniformHost(n, 125);
	std::vector<double> hA((size_t)n * n);
	for (size_t i = 0; i < (size_t)n; i++)
		for (size_t j = 0; j < (size_t)n; j++)
			hA[i * n + j] = double(bench::uniformAt(121, i * n + j)) + double(hu1[i]) * hv1[j] +
			                double(hu2[i]) * hv2[j];
	std::vector<double> rx = textbook::widen(textbook::uniformHost(n, 126));
	std::vector<float> hy = textbook::uniformHost(n, 127), hz = textbook::uniformHost(n, 128);
	for (size_t j = 0; j < (size_t)n; j++)
		for (size_t i = 0; i < (size_t)n; i++)
			rx[i] += double(beta) * hA[j * n + i] * hy[j];
	for (size_t i = 0; i < (size_t)n; i++)
		rx[i] += hz[i];
	std::vector<double> rw = textbook::widen(textbook::uniformHost(n, 129));
	for (size_t i = 0; i < (size_t)n; i++)
		for (size_t j = 0; j < (size_t)n; j++)
			rw[i] += double(alpha) * hA[i * n + j] * rx[j];

	bench::CheckResult r = bench::checkOutput(A, (size_t)n * n, 4096, [&](size_t k) { return hA[k]; }, 1e-5, 1e-5);
	r = bench::combine(r, textbook::checkAll(x, rx, 1e-3, 1e-3));
	r = bench::combine(r, textbook::checkAll(w, rw, 1e-3, 1e-1));
	return bench::report(__FILE__, ms, r);
}
