// Template spellings of kernels the transforms take written plainly
// (templates.test): template parameters as the stencil radius, the element
// type, the matmul size and the block shape; each launched with constants, as
// application code does.
#define N 100

// stencil-tiling, stencil-streaming: a box blur of radius R (the loop bounds and
// the interior guard depend on R).
#pragma kopt optimize launch(grid: (N + 31) / 32, (N + 7) / 8; block: 32, 8) \
    buffers(A[N * N] in, B[N * N] out) noalias
template <int R> __global__ void box_blur(const float *A, float *B) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= R && i < N - R && j >= R && j < N - R) {
    float s = 0.0f;
    for (int di = -R; di <= R; ++di)
      for (int dj = -R; dj <= R; ++dj)
        s += A[(i + di) * N + j + dj];
    B[i * N + j] = s / ((2 * R + 1) * (2 * R + 1));
  }
}

// stencil-tiling, block-shape-2d, thread-coarsening-2d: a Jacobi step on
// elements of type T.
#pragma kopt optimize launch(grid: (w + 15) / 16, (h + 15) / 16; block: 16, 16) \
    args(w = 77, h = 41) buffers(in[w * h] in, out[w * h] out) noalias
template <typename T> __global__ void jacobi(const T *in, T *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= 1 && x < w - 1 && y >= 1 && y < h - 1)
    out[y * w + x] = T(0.25) * (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] +
                                in[(y + 1) * w + x]);
}

// smem-tiling, register-blocking: a square product of size S.
#pragma kopt optimize launch(grid: (S + 15) / 16, (S + 15) / 16; block: 16, 16) \
    buffers(A[S * S] in, B[S * S] in, C[S * S] out) tol(rtol = 1e-3, atol = 1e-3)
template <int S> __global__ void matmul_n(const float *A, const float *B, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < S && col < S) {
    float acc = 0.0f;
    for (int k = 0; k < S; ++k)
      acc += A[row * S + k] * B[k * S + col];
    C[row * S + col] = acc;
  }
}

// grid-stride-cover: saxpy over elements of type T.
#pragma kopt optimize launch(grid: 2; block: 64) args(n = 1000, a = 2.0f) \
    buffers(x[n] in, y[n] inout)
template <typename T> __global__ void saxpy_stride(int n, float a, const T *x, T *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}

// grid-2d: a flat index over a W x H output split again, the sizes template
// parameters.
#pragma kopt optimize launch(grid: (W * H + 255) / 256; block: 256) \
    buffers(in[W * H] in, out[W * H] out)
template <int W, int H> __global__ void transpose_flat(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

// thread-mapping-swap: rows from x, a block shape BX x BY given as template
// arguments and used by the index.
#pragma kopt optimize launch(grid: (m + BX - 1) / BX, (n + BY - 1) / BY; block: BX, BY) \
    args(m = 300, n = 200) buffers(in[m * n] in, out[m * n] out)
template <int BX, int BY> __global__ void scale_rows(const float *in, float *out, int m, int n) {
  int row = blockIdx.x * BX + threadIdx.x;
  int col = blockIdx.y * BY + threadIdx.y;
  if (row < m && col < n)
    out[row * n + col] = 2.0f * in[row * n + col];
}

void run(const float *A, float *B, const float *C, float *D, float *E, double *F, double *G) {
  box_blur<2><<<dim3((N + 31) / 32, (N + 7) / 8), dim3(32, 8)>>>(A, B);
  jacobi<double><<<dim3(5, 3), dim3(16, 16)>>>(F, G, 77, 41);
  matmul_n<96><<<dim3(6, 6), dim3(16, 16)>>>(A, C, D);
  saxpy_stride<float><<<2, 64>>>(1000, 2.0f, A, B);
  transpose_flat<64, 48><<<(64 * 48 + 255) / 256, 256>>>(A, E);
  scale_rows<16, 16><<<dim3(19, 13), dim3(16, 16)>>>(A, B, 300, 200);
}
