// 2D kernel whose x-driven index is the slow one: every warp writes and reads
// with a stride of n.
#pragma kopt optimize launch(grid: (m + 15) / 16, (n + 15) / 16; block: 16, 16) \
    args(m = 300, n = 200) buffers(in[m * n] in, out[m * n] out)
__global__ void scale_rows(const float *in, float *out, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < m && col < n)
    out[row * n + col] = 2.0f * in[row * n + col];
}

// Two perfectly nested loops whose inner index is the strided one.
__global__ void column_loops(const float *in, float *out, int m, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < 1) {
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        out[i * n + j] = in[i * n + j] + 1.0f;
  }
}
