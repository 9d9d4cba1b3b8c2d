// An attribute-specifier after a CUDA qualifier, which nvcc accepts and clang 19 rejects
// ("an attribute list cannot appear here").
#define TILE 16

__global__ void transpose_tile(const float *in, float *out, int n) {
  __shared__ alignas(alignof(float4)) float tile[TILE][TILE + 1];
  __shared__ alignas(16) int flags[TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < n && y < n)
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  flags[threadIdx.x % TILE] = 1;
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < n && y < n)
    out[y * n + x] = tile[threadIdx.x][threadIdx.y] * flags[threadIdx.y % TILE];
}

#ifdef MISPLACED
// Not after a CUDA qualifier: clang's error stands (kopt tolerates only the placements
// after __shared__, __device__, __constant__, __managed__ and the function qualifiers).
int alignas(16) misplaced;
#endif
