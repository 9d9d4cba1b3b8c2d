// Kernels of the kinds the corpus lacks: a transpose, a block scan and
// matrix-vector products.
#define TILE 32

__global__ void transpose(const float *in, float *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    out[x * height + y] = in[y * width + x];
}

__global__ void block_scan(const float *in, float *out, int n) {
  __shared__ float temp[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  temp[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    float t = threadIdx.x >= offset ? temp[threadIdx.x - offset] : 0.0f;
    __syncthreads();
    temp[threadIdx.x] += t;
    __syncthreads();
  }
  if (i < n)
    out[i] = temp[threadIdx.x];
}

// Matrix-vector products in both orientations (PolyBench's mvt): one thread a
// row reading A along it, and one thread a column reading A down it.
__global__ void mv_rows(int n, const float *a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < n; j++)
      s += a[i * n + j] * x[j];
    y[i] = s;
  }
}

__global__ void mv_columns(int n, const float *a, const float *x, float *y) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n)
    for (int i = 0; i < n; i++)
      y[j] += a[i * n + j] * x[i];
}
