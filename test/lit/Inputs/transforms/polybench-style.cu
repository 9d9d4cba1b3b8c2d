// Dense linear algebra written the way GPU ports of polyhedral benchmark suites
// write it: sizes and the element type are macros, the counter is declared
// before its loop, products accumulate straight into global memory with a
// `*= beta` or `= 0` first and alpha inside the loop, one kernel a step.
#ifndef ROWS
#define ROWS 100
#endif
#ifndef COLS
#define COLS 70
#endif
#ifndef DEPTH
#define DEPTH 50
#endif
#ifndef DATA_TYPE
#define DATA_TYPE float
#endif

#pragma kopt optimize launch(grid: (COLS + 31) / 32, (ROWS + 7) / 8; block: 32, 8) \
    args(alpha = 1.5f, beta = 1.2f) \
    buffers(a[ROWS * DEPTH] in, b[DEPTH * COLS] in, c[ROWS * COLS] inout) noalias
__global__ void scaled_gemm(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *a, DATA_TYPE *b,
                            DATA_TYPE *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < ROWS) && (j < COLS))
	{
		c[i * COLS + j] *= beta;
		int k;
		for (k = 0; k < DEPTH; k++)
		{
			c[i * COLS + j] += alpha * a[i * DEPTH + k] * b[k * COLS + j];
		}
	}
}

// The symmetric rank-k update: both operands are rows of a.
#pragma kopt optimize launch(grid: (ROWS + 31) / 32, (ROWS + 7) / 8; block: 32, 8) \
    args(alpha = 0.5f, beta = 2.0f) buffers(a[ROWS * DEPTH] in, c[ROWS * ROWS] inout) noalias
__global__ void rank_k_update(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *a, DATA_TYPE *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < ROWS) && (j < ROWS))
	{
		c[i * ROWS + j] = beta * c[i * ROWS + j];
		int k;
		for (k = 0; k < DEPTH; ++k)
		{
			c[i * ROWS + j] += alpha * a[i * DEPTH + k] * a[j * DEPTH + k];
		}
	}
}

// The symmetric rank-2k update: two products summed in one update, each
// operand a row of a or b, alpha in both terms.
#pragma kopt optimize launch(grid: (ROWS + 31) / 32, (ROWS + 7) / 8; block: 32, 8) \
    args(alpha = 0.5f, beta = 2.0f) buffers(a[ROWS * DEPTH] in, b[ROWS * DEPTH] in, c[ROWS * ROWS] inout) \
    noalias
__global__ void rank_2k_update(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < ROWS) && (j < ROWS))
	{
		c[i * ROWS + j] *= beta;
		int k;
		for (k = 0; k < DEPTH; k++)
		{
			c[i * ROWS + j] += alpha * a[i * DEPTH + k] * b[j * DEPTH + k] + alpha * b[i * DEPTH + k] * a[j * DEPTH + k];
		}
	}
}

// Two products in a chain, one kernel each: tmp = alpha * a * b, then
// d = beta * d + tmp * e.
#pragma kopt optimize launch(grid: (COLS + 31) / 32, (ROWS + 7) / 8; block: 32, 8) \
    args(alpha = 1.5f) buffers(a[ROWS * DEPTH] in, b[DEPTH * COLS] in, tmp[ROWS * COLS] out) \
    noalias
__global__ void chain_first(DATA_TYPE alpha, DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *tmp)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < ROWS) && (j < COLS))
	{
		tmp[i * COLS + j] = 0;
		int k;
		for (k = 0; k < DEPTH; k += 1)
		{
			tmp[i * COLS + j] += alpha * a[i * DEPTH + k] * b[k * COLS + j];
		}
	}
}

#pragma kopt optimize launch(grid: (DEPTH + 31) / 32, (ROWS + 7) / 8; block: 32, 8) \
    args(beta = 1.2f) buffers(tmp[ROWS * COLS] in, e[COLS * DEPTH] in, d[ROWS * DEPTH] inout) \
    noalias
__global__ void chain_second(DATA_TYPE beta, DATA_TYPE *tmp, DATA_TYPE *e, DATA_TYPE *d)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < ROWS) && (j < DEPTH))
	{
		d[i * DEPTH + j] *= beta;
		int k;
		for (k = 0; k < COLS; k++)
		{
			d[i * DEPTH + j] += tmp[i * COLS + k] * e[k * DEPTH + j];
		}
	}
}

// A matrix-vector product, one thread a row: the row's dot product
// accumulates in tmp[i] (a second kernel reads tmp).
#pragma kopt optimize launch(grid: (ROWS + 255) / 256; block: 256) \
    buffers(a[ROWS * COLS] in, x[COLS] in, tmp[ROWS] out) noalias
__global__ void row_dot(DATA_TYPE *a, DATA_TYPE *x, DATA_TYPE *tmp)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < ROWS)
	{
		tmp[i] = 0;
		int j;
		for (j = 0; j < COLS; j++)
		{
			tmp[i] += a[i * COLS + j] * x[j];
		}
	}
}

// Two accumulators in one row loop, combined after it.
#pragma kopt optimize launch(grid: (ROWS + 255) / 256; block: 256) args(alpha = 1.5f, beta = 1.2f) \
    buffers(a[ROWS * COLS] in, b[ROWS * COLS] in, x[COLS] in, tmp[ROWS] out, y[ROWS] out) noalias
__global__ void two_rows_dot(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *a, DATA_TYPE *b,
                             DATA_TYPE *x, DATA_TYPE *tmp, DATA_TYPE *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < ROWS)
	{
		int j;
		tmp[i] = 0;
		y[i] = 0;
		for (j = 0; j < COLS; j++)
		{
			tmp[i] = a[i * COLS + j] * x[j] + tmp[i];
			y[i] = b[i * COLS + j] * x[j] + y[i];
		}
		y[i] = alpha * tmp[i] + beta * y[i];
	}
}
