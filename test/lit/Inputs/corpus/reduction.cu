// A shared-memory tree reduction finished with warp shuffles.
#define BLOCK 256

__global__ void reduce_sum(const float *in, float *out, int n) {
  __shared__ float partial[BLOCK];
  extern __shared__ float scratch[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float v = 0.0f;
  if (i < n)
    v = in[i];
  if (i + blockDim.x < n)
    v += in[i + blockDim.x];
  partial[tid] = v;
  scratch[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    v = partial[tid] + partial[tid + 32];
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffff, v, offset);
  }
  if (tid == 0)
    out[blockIdx.x] = v;
}

void sum(const float *in, float *out, int n, cudaStream_t stream) {
  int blocks = (n + BLOCK * 2 - 1) / (BLOCK * 2);
  reduce_sum<<<blocks, BLOCK, BLOCK * sizeof(float), stream>>>(in, out, n);
}
