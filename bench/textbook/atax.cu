// class: linalg
// y = A^T (A x) in the manner of PolyBench-GPU's atax: two 1-D kernels, one thread per
// row for tmp = A x and one thread per column for y = A^T tmp, both accumulating into
// global memory that the host zeroes first, macro sizes, and the host's grid spelled
// (size_t)(ceil(((float)NX) / ((float)block.x))) and copied into the pragma as is.
// Sizes: A is 8192 x 7936 (260 MB).
// Naive estimate on the H100: the row kernel reads A across rows (uncoalesced) with
// 8192 threads, the column kernel coalesced with 7936: ~10-30 ms.
// Check: tmp and y in full against a double reference (y, of magnitude ~3000, with an
// absolute tolerance of 0.05: float rounding of its 8192-term sums).
#include "textbook_util.h"
#include <math.h>

#define NX 8192
#define NY 7936

#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

#define DATA_TYPE float

#pragma kopt optimize launch(grid: (size_t)(ceil(((float)NX) / ((float)DIM_THREAD_BLOCK_X))), 1; \
    block: DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y) buffers(A[NX * NY] in, x[NY] in, tmp[NX] inout) \
    tol(rtol = 1e-3, atol = 1e-3)
__global__ void atax_kernel1(DATA_TYPE *A, DATA_TYPE *x, DATA_TYPE *tmp)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < NX)
	{
		int j;
		for (j = 0; j < NY; j++)
		{
			tmp[i] += A[i * NY + j] * x[j];
		}
	}
}

#pragma kopt optimize launch(grid: (size_t)(ceil(((float)NY) / ((float)DIM_THREAD_BLOCK_X))), 1; \
    block: DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y) buffers(A[NX * NY] in, y[NY] inout, tmp[NX] in) \
    tol(rtol = 1e-3, atol = 1e-3)
__global__ void atax_kernel2(DATA_TYPE *A, DATA_TYPE *y, DATA_TYPE *tmp)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if (j < NY)
	{
		int i;
		for (i = 0; i < NX; i++)
		{
			y[j] += A[i * NY + j] * tmp[i];
		}
	}
}

int main()
{
	DATA_TYPE *A_gpu = bench::uniformBuffer((size_t)NX * NY, 81);
	DATA_TYPE *x_gpu = bench::uniformBuffer(NY, 82);
	DATA_TYPE *y_gpu = bench::deviceAlloc<DATA_TYPE>(NY);
	DATA_TYPE *tmp_gpu = bench::deviceAlloc<DATA_TYPE>(NX);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid1((size_t)(ceil(((float)NX) / ((float)block.x))), 1);
	dim3 grid2((size_t)(ceil(((float)NY) / ((float)block.x))), 1);
	float ms = bench::medianMs([&] {
		cudaMemset(y_gpu, 0, sizeof(DATA_TYPE) * NY);
		cudaMemset(tmp_gpu, 0, sizeof(DATA_TYPE) * NX);
		atax_kernel1<<<grid1, block>>>(A_gpu, x_gpu, tmp_gpu);
		atax_kernel2<<<grid2, block>>>(A_gpu, y_gpu, tmp_gpu);
	});

	std::vector<float> A = textbook::uniformHost((size_t)NX * NY, 81);
	std::vector<float> x = textbook::uniformHost(NY, 82);
	std::vector<double> tmp(NX, 0.0), y(NY, 0.0);
	for (size_t i = 0; i < NX; i++)
		for (size_t j = 0; j < NY; j++)
			tmp[i] += double(A[i * NY + j]) * x[j];
	for (size_t i = 0; i < NX; i++)
		for (size_t j = 0; j < NY; j++)
			y[j] += double(A[i * NY + j]) * tmp[i];
	return bench::report(__FILE__, ms,
	                     bench::combine(textbook::checkAll(tmp_gpu, tmp, 1e-3, 1e-3),
	                                    textbook::checkAll(y_gpu, y, 1e-3, 5e-2)));
}
