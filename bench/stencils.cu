// Stencils at GPU sizes for timing stencil-tiling, stencil-streaming and
// block-shape-2d with `kopt optimize` (the evaluator fills the buffers and checks
// each variant against the original). The same spellings as the lit inputs
// (test/lit/Inputs/transforms/stencil-2d.cu, stencil-3d.cu), in the styles of
// PolyBench and Rodinia:
//   kopt optimize bench/stencils.cu --kernel jacobi2d --kopt-engine=skills --kopt-budget=60s -- -arch=sm_90
#define N 4096

#pragma kopt optimize launch(grid: (N + 31) / 32, (N + 7) / 8; block: 32, 8) \
    buffers(A[N * N] in, B[N * N] out) noalias
__global__ void jacobi2d(const float *A, float *B) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if ((i >= 1) && (i < N - 1) && (j >= 1) && (j < N - 1))
    B[i * N + j] = 0.2f * (A[i * N + j] + A[i * N + (j - 1)] + A[i * N + (j + 1)] +
                           A[(i + 1) * N + j] + A[(i - 1) * N + j]);
}

#pragma kopt optimize launch(grid: (cols + 15) / 16, (rows + 15) / 16; block: 16, 16) \
    args(rows = 4096, cols = 4096, cap = 0.5f) \
    buffers(power[rows * cols] in, temp[rows * cols] in, result[rows * cols] out) noalias
__global__ void hotspot_step(const float *power, const float *temp, float *result, int rows,
                             int cols, float cap) {
  int tx = threadIdx.x, ty = threadIdx.y;
  int c = blockIdx.x * blockDim.x + tx;
  int r = blockIdx.y * blockDim.y + ty;
  if (r >= rows || c >= cols)
    return;
  int idx = r * cols + c;
  float t = temp[idx];
  float north = (r == 0) ? t : temp[idx - cols];
  float south = (r == rows - 1) ? t : temp[idx + cols];
  float west = (c == 0) ? t : temp[idx - 1];
  float east = (c == cols - 1) ? t : temp[idx + 1];
  result[idx] = t + cap * (power[idx] + (north + south - 2.0f * t) + (east + west - 2.0f * t));
}

#pragma kopt optimize launch(grid: (nj + 31) / 32, (ni + 7) / 8; block: 32, 8) \
    args(ni = 4096, nj = 4096) buffers(A[ni * nj] in, B[ni * nj] out) noalias
__global__ void conv2d(int ni, int nj, const float *A, float *B) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
  float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
  float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
  if ((i < ni - 1) && (j < nj - 1) && (i > 0) && (j > 0))
    B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c12 * A[(i + 0) * nj + (j - 1)] +
                    c13 * A[(i + 1) * nj + (j - 1)] + c21 * A[(i - 1) * nj + (j + 0)] +
                    c22 * A[(i + 0) * nj + (j + 0)] + c23 * A[(i + 1) * nj + (j + 0)] +
                    c31 * A[(i - 1) * nj + (j + 1)] + c32 * A[(i + 0) * nj + (j + 1)] +
                    c33 * A[(i + 1) * nj + (j + 1)];
}

#pragma kopt optimize launch(grid: (nx + 31) / 32, (ny + 3) / 4, (nz + 3) / 4; block: 32, 4, 4) \
    args(nx = 256, ny = 256, nz = 256, alpha = 0.1f) \
    buffers(u[nx * ny * nz] in, v[nx * ny * nz] out) noalias
__global__ void heat3d(int nx, int ny, int nz, float alpha, const float *u, float *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i > 0 && j > 0 && k > 0 && i < nx - 1 && j < ny - 1 && k < nz - 1) {
    int c = (k * ny + j) * nx + i;
    v[c] = u[c] + alpha * (u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] + u[c - nx * ny] +
                           u[c + nx * ny] - 6.0f * u[c]);
  }
}
