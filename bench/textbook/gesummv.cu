// class: linalg
// y = alpha * A x + beta * B x (scalar, vector and matrix multiplication) in the manner
// of PolyBench-GPU's gesummv: one thread per row running both dot products into global
// tmp[i] and y[i], the alpha/beta combination after the loop, and a grid spelled
// N / BLOCK + ((N % BLOCK) ? 1 : 0) on the host and in the pragma.
// Sizes: N = 8192 (A and B 256 MB each).
// Naive estimate on the H100: 8192 threads reading two matrices across rows
// (uncoalesced), with two global read-modify-writes a step: ~20-40 ms.
// Check: y and tmp in full against a double reference.
#include "textbook_util.h"

#define N 8192
#define BLOCK 256

#pragma kopt optimize launch(grid: N / BLOCK + ((N % BLOCK) ? 1 : 0); block: BLOCK) \
    args(alpha = 1.5f, beta = 0.5f) buffers(a[N * N] in, b[N * N] in, x[N] in, y[N] out, tmp[N] out) \
    tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void gesummv_kernel(float alpha, float beta, float *a, float *b, float *x, float *y, float *tmp)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < N)
	{
		int j;
		tmp[i] = 0;
		y[i] = 0;
		for (j = 0; j < N; j++)
		{
			tmp[i] += a[i * N + j] * x[j];
			y[i] += b[i * N + j] * x[j];
		}
		y[i] = alpha * tmp[i] + beta * y[i];
	}
}

int main()
{
	float alpha = 1.5f, beta = 0.5f;
	float *a = bench::uniformBuffer((size_t)N * N, 111);
	float *b = bench::uniformBuffer((size_t)N * N, 112);
	float *x = bench::uniformBuffer(N, 113);
	float *y = bench::deviceAlloc<float>(N);
	float *tmp = bench::deviceAlloc<float>(N);

	int blocks = N / BLOCK + ((N % BLOCK) ? 1 : 0);
	float ms = bench::medianMs([&] { gesummv_kernel<<<blocks, BLOCK>>>(alpha, beta, a, b, x, y, tmp); });

	std::vector<float> hx = textbook::uniformHost(N, 113);
	std::vector<double> ref(N), refTmp(N);
	for (size_t i = 0; i < N; i++) {
		double ta = 0, tb = 0;
		for (size_t j = 0; j < N; j++) {
			ta += double(bench::uniformAt(111, i * N + j)) * hx[j];
			tb += double(bench::uniformAt(112, i * N + j)) * hx[j];
		}
		refTmp[i] = ta;
		ref[i] = alpha * ta + beta * tb;
	}
	return bench::report(__FILE__, ms,
	                     bench::combine(textbook::checkAll(y, ref, 1e-3, 1e-3), textbook::checkAll(tmp, refTmp, 1e-3, 1e-3)));
}
