// Element-wise kernels: a guarded 1D map, a grid-stride loop, a strided read.
#define N (1 << 20)
#define BLOCK 256
#define DIV_UP(a, b) (((a) + (b) - 1) / (b))

__global__ void scale_add(int n, float a, const float *__restrict__ x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * expf(x[i]) + y[i];
}

__global__ void grid_stride(int n, const float *in, float *out, int stride) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = sqrtf(in[i * stride]) + in[2 * i];
}

__global__ void gather(int n, const int *idx, const float *src, float *dst) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float *base = src + 1;
  dst[i] = base[idx[i]] + *src + src[i / 2];
}

void run(float *x, float *y, int *idx, cudaStream_t stream) {
  scale_add<<<DIV_UP(N, BLOCK), BLOCK>>>(N, 2.0f, x, y);
  grid_stride<<<128, BLOCK, 0, stream>>>(N, x, y, 4);
  gather<<<dim3(DIV_UP(N, BLOCK)), dim3(BLOCK)>>>(N, idx, x, y);
}
