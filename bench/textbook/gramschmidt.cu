// class: solver
// QR decomposition by (modified) Gram-Schmidt in the manner of PolyBench-GPU's
// gramschmidt: a host loop over the columns k launches three kernels: the norm of column
// k summed by one thread of a full block (`if (tid == 0)`), the column of Q, and one
// thread per later column j > k that accumulates R[k][j] in global memory over all rows
// and then removes that component from A.
// Sizes: M = 1024 rows, N = 512 columns (1536 launches, 5.4e8 multiply-adds, most of it
// in long serial loops on few threads).
// Naive estimate on the H100: the serial norm ~50 us a column and the column-per-thread
// kernel ~0.1 ms a column: ~50-100 ms.
// Check: R and Q in full against the same steps in double on the host.
#include "textbook_util.h"

#define M 1024
#define N 512

#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

#pragma kopt optimize launch(grid: 1; block: DIM_THREAD_BLOCK_X) args(k = 0) \
    buffers(a[M * N] in, r[N * N] inout, q[M * N] inout) tol(rtol = 1e-3, atol = 1e-4)
__global__ void gramschmidt_kernel1(float *a, float *r, float *q, int k)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;

	if (tid == 0)
	{
		float nrm = 0.0;
		int i;
		for (i = 0; i < M; i++)
		{
			nrm += a[i * N + k] * a[i * N + k];
		}
		r[k * N + k] = sqrt(nrm);
	}
}

#pragma kopt optimize launch(grid: (M + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X; block: DIM_THREAD_BLOCK_X) \
    args(k = 0) buffers(a[M * N] in, r[N * N] in, q[M * N] inout) tol(rtol = 1e-3, atol = 1e-4)
__global__ void gramschmidt_kernel2(float *a, float *r, float *q, int k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < M)
	{
		q[i * N + k] = a[i * N + k] / r[k * N + k];
	}
}

#pragma kopt optimize launch(grid: (N + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X; block: DIM_THREAD_BLOCK_X) \
    args(k = 0) buffers(a[M * N] inout, r[N * N] inout, q[M * N] in) tol(rtol = 1e-3, atol = 1e-4)
__global__ void gramschmidt_kernel3(float *a, float *r, float *q, int k)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if ((j > k) && (j < N))
	{
		r[k * N + j] = 0.0;

		int i;
		for (i = 0; i < M; i++)
		{
			r[k * N + j] += q[i * N + k] * a[i * N + j];
		}

		for (i = 0; i < M; i++)
		{
			a[i * N + j] -= q[i * N + k] * r[k * N + j];
		}
	}
}

int main()
{
	float *A_gpu = bench::uniformBuffer((size_t)M * N, 181);
	float *A_start = textbook::snapshot(A_gpu, (size_t)M * N);
	float *R_gpu = bench::zeroBuffer<float>((size_t)N * N);
	float *Q_gpu = bench::zeroBuffer<float>((size_t)M * N);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 gridKernel1(1, 1);
	dim3 gridKernel2((M + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, 1);
	dim3 gridKernel3((N + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, 1);
	float ms = bench::medianMsWithReset([&] { textbook::restore(A_gpu, A_start, (size_t)M * N); },
	                                    [&] {
		                                    for (int k = 0; k < N; k++)
		                                    {
			                                    gramschmidt_kernel1<<<gridKernel1, block>>>(A_gpu, R_gpu, Q_gpu, k);
			                                    gramschmidt_kernel2<<<gridKernel2, block>>>(A_gpu, R_gpu, Q_gpu, k);
			                                    gramschmidt_kernel3<<<gridKernel3, block>>>(A_gpu, R_gpu, Q_gpu, k);
		                                    }
	                                    },
	                                    1, 7);

	std::vector<double> a = textbook::widen(textbook::uniformHost((size_t)M * N, 181));
	std::vector<double> r((size_t)N * N, 0.0), q((size_t)M * N, 0.0);
	for (size_t k = 0; k < N; k++)
	{
		double nrm = 0;
		for (size_t i = 0; i < M; i++)
			nrm += a[i * N + k] * a[i * N + k];
		r[k * N + k] = std::sqrt(nrm);
		for (size_t i = 0; i < M; i++)
			q[i * N + k] = a[i * N + k] / r[k * N + k];
		for (size_t j = k + 1; j < N; j++)
		{
			double s = 0;
			for (size_t i = 0; i < M; i++)
				s += q[i * N + k] * a[i * N + j];
			r[k * N + j] = s;
			for (size_t i = 0; i < M; i++)
				a[i * N + j] -= q[i * N + k] * s;
		}
	}
	return bench::report(__FILE__, ms,
	                     bench::combine(textbook::checkAll(R_gpu, r, 1e-3, 1e-4), textbook::checkAll(Q_gpu, q, 1e-3, 1e-4)));
}
