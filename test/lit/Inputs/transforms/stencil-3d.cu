// Three-dimensional stencils for the stencil-tiling, stencil-streaming and
// block-shape-2d tests: a flattened 7-point heat update with parameters, a
// 27-point convolution on fixed-size 3-D arrays, and a PolyBench-style
// convolution whose kernel covers one plane (the plane is a parameter).
#define NX 34
#define NY 21
#define NZ 19

// The 7-point heat update: i from x, j from y, k from z, interior guard,
// neighbours through a local centre index.
#pragma kopt optimize launch(grid: (nx + 31) / 32, (ny + 3) / 4, (nz + 3) / 4; block: 32, 4, 4) \
    args(nx = 40, ny = 23, nz = 18, alpha = 0.1f) buffers(u[nx * ny * nz] in, v[nx * ny * nz] out) \
    noalias
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

// A 27-point smoothing of fixed-size double arrays, [z][y][x] subscripts, an
// early return, every weight a literal.
#pragma kopt optimize launch(grid: (NX + 15) / 16, (NY + 7) / 8, (NZ + 1) / 2; block: 16, 8, 2) \
    buffers(a[NX * NY * NZ] in, b[NX * NY * NZ] out) noalias
__global__ void smooth27(const double (*a)[NY][NX], double (*b)[NY][NX]) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < 1 || y < 1 || z < 1 || x >= NX - 1 || y >= NY - 1 || z >= NZ - 1)
    return;
  double faces = a[z - 1][y][x] + a[z + 1][y][x] + a[z][y - 1][x] + a[z][y + 1][x] +
                 a[z][y][x - 1] + a[z][y][x + 1];
  double edges = a[z - 1][y - 1][x] + a[z - 1][y + 1][x] + a[z + 1][y - 1][x] +
                 a[z + 1][y + 1][x] + a[z - 1][y][x - 1] + a[z - 1][y][x + 1] +
                 a[z + 1][y][x - 1] + a[z + 1][y][x + 1] + a[z][y - 1][x - 1] +
                 a[z][y - 1][x + 1] + a[z][y + 1][x - 1] + a[z][y + 1][x + 1];
  double corners = a[z - 1][y - 1][x - 1] + a[z - 1][y - 1][x + 1] + a[z - 1][y + 1][x - 1] +
                   a[z - 1][y + 1][x + 1] + a[z + 1][y - 1][x - 1] + a[z + 1][y - 1][x + 1] +
                   a[z + 1][y + 1][x - 1] + a[z + 1][y + 1][x + 1];
  b[z][y][x] = 0.5 * a[z][y][x] + 0.05 * faces + 0.015 * edges + 0.01 * corners;
}

// A PolyBench-style 3-D convolution launched once a plane: i is a parameter,
// j from y, k from x; each thread reads three planes of A.
#pragma kopt optimize launch(grid: (nk + 31) / 32, (nj + 7) / 8; block: 32, 8) \
    args(ni = 9, nj = 30, nk = 45, i = 4) buffers(A[ni * nj * nk] in, B[ni * nj * nk] out) noalias
__global__ void conv3d_plane(int ni, int nj, int nk, int i, const float *A, float *B) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  float c11 = +2, c12 = -3, c13 = +4, c21 = +5, c22 = -6, c23 = +7, c31 = -8, c32 = -9,
        c33 = +10;
  if ((i < ni - 1) && (j < nj - 1) && (k < nk - 1) && (i > 0) && (j > 0) && (k > 0))
    B[i * (nk * nj) + j * nk + k] =
        c11 * A[(i - 1) * (nk * nj) + (j - 1) * nk + (k - 1)] +
        c13 * A[(i + 1) * (nk * nj) + (j - 1) * nk + (k - 1)] +
        c21 * A[(i - 1) * (nk * nj) + (j - 1) * nk + (k - 1)] +
        c23 * A[(i + 1) * (nk * nj) + (j - 1) * nk + (k - 1)] +
        c31 * A[(i - 1) * (nk * nj) + (j - 1) * nk + (k - 1)] +
        c33 * A[(i + 1) * (nk * nj) + (j - 1) * nk + (k - 1)] +
        c12 * A[(i + 0) * (nk * nj) + (j - 1) * nk + (k + 0)] +
        c22 * A[(i + 0) * (nk * nj) + (j + 0) * nk + (k + 0)] +
        c32 * A[(i + 0) * (nk * nj) + (j + 1) * nk + (k + 0)] +
        c11 * A[(i - 1) * (nk * nj) + (j - 1) * nk + (k + 1)] +
        c13 * A[(i + 1) * (nk * nj) + (j - 1) * nk + (k + 1)] +
        c21 * A[(i - 1) * (nk * nj) + (j + 0) * nk + (k + 1)] +
        c23 * A[(i + 1) * (nk * nj) + (j + 0) * nk + (k + 1)] +
        c31 * A[(i - 1) * (nk * nj) + (j + 1) * nk + (k + 1)] +
        c33 * A[(i + 1) * (nk * nj) + (j + 1) * nk + (k + 1)];
}

// PolyBench's heat-3d through an index macro, i (the slowest dimension) from x
// and k (the contiguous one) from z, as a direct port of its loops maps them.
#define IDX(i, j, k) (((i) * NY + (j)) * NZ + (k))
#pragma kopt optimize launch(grid: (NX + 7) / 8, (NY + 7) / 8, (NZ + 3) / 4; block: 8, 8, 4) \
    args(c0 = 0.4f, c1 = 0.1f) buffers(in[NX * NY * NZ] in, out[NX * NY * NZ] out) noalias
__global__ void heat3d_macro(const float *in, float *out, float c0, float c1) {
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 && i < NX - 1 && j >= 1 && j < NY - 1 && k >= 1 && k < NZ - 1)
    out[IDX(i, j, k)] = c0 * in[IDX(i, j, k)] +
                        c1 * (in[IDX(i - 1, j, k)] + in[IDX(i + 1, j, k)] + in[IDX(i, j - 1, k)] +
                              in[IDX(i, j + 1, k)] + in[IDX(i, j, k - 1)] + in[IDX(i, j, k + 1)]);
}
