// class: linalg
// Two kernels for bench/transform_coverage.py: a matrix-vector product that sums into
// global memory (one thread a row, no noalias: the cooperative transforms must refuse),
// and an elementwise scale.
#define THREADS 128

#pragma kopt optimize launch(grid: (rows + THREADS - 1) / THREADS; block: THREADS) \
    args(rows = 300, cols = 200) buffers(a[rows * cols] in, x[cols] in, y[rows] inout)
__global__ void row_dot(const double *a, const double *x, double *y, int rows, int cols)
{
    unsigned r = blockDim.x * blockIdx.x + threadIdx.x;
    if (r >= rows)
        return;
    for (unsigned c = 0; c < cols; c++)
        y[r] = y[r] + a[r * cols + c] * x[c];
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1000, s = 2.0f) \
    buffers(v[n] inout)
__global__ void scale(float *v, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= s;
}
