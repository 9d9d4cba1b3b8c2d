// A 2D kernel with shared memory: block-size and coarsening do not apply.
#pragma kopt optimize launch(grid: (w + 15) / 16, (h + 15) / 16; block: 16, 16) \
    args(w = 512, h = 512) buffers(in[w * h] in, out[w * h] out) noalias
__global__ void blur(int w, int h, const float *in, float *out) {
  __shared__ float tile[16][16];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = (x < w && y < h) ? in[y * w + x] : 0.0f;
  __syncthreads();
  if (x < w && y < h)
    out[y * w + x] = 0.5f * tile[threadIdx.y][threadIdx.x] + 0.5f * in[y * w + x] / 3.0f;
}
