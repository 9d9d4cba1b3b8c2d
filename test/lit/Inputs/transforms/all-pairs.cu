// All-pairs loops: each thread i walks every j and reads arrays at [j], as
// n-body codes, pairwise distances and kernel density sums write them.

// n-body accelerations from separate coordinate arrays, a guard around the work.
#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 1000) \
    buffers(x[n] in, y[n] in, z[n] in, m[n] in, ax[n] out, ay[n] out, az[n] out) \
    tol(rtol = 0, atol = 0)
__global__ void nbody(const float *x, const float *y, const float *z, const float *m, float *ax,
                      float *ay, float *az, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float xi = x[i], yi = y[i], zi = z[i];
    float fx = 0.0f, fy = 0.0f, fz = 0.0f;
    for (int j = 0; j < n; j++) {
      float dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
      float r2 = dx * dx + dy * dy + dz * dz + 1e-3f;
      float inv = m[j] / (r2 * sqrtf(r2));
      fx += dx * inv;
      fy += dy * inv;
      fz += dz * inv;
    }
    ax[i] = fx;
    ay[i] = fy;
    az[i] = fz;
  }
}

// Packed float4 positions, an early return, j == i skipped by continue.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 700) \
    buffers(p[n] in, pot[n] out) tol(rtol = 0, atol = 0)
__global__ void potential(const float4 *p, float *pot, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 me = p[i];
  float sum = 0.0f;
  for (int j = 0; j < n; ++j) {
    if (j == i)
      continue;
    float dx = p[j].x - me.x, dy = p[j].y - me.y, dz = p[j].z - me.z;
    sum += p[j].w / sqrtf(dx * dx + dy * dy + dz * dz + 1e-6f);
  }
  pot[i] = sum;
}

// Pairwise distances of doubles to every reference point, a minimum.
#pragma kopt optimize launch(grid: (q + 63) / 64; block: 64) args(q = 300, r = 500) \
    buffers(qx[q] in, qy[q] in, rx[r] in, ry[r] in, nearest[q] out) tol(rtol = 0, atol = 0)
__global__ void nearest_ref(const double *qx, const double *qy, const double *rx,
                            const double *ry, double *nearest, int q, int r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < q) {
    double best = 1e300;
    for (int j = 0; j < r; j++) {
      double dx = rx[j] - qx[i], dy = ry[j] - qy[i];
      best = fmin(best, dx * dx + dy * dy);
    }
    nearest[i] = sqrt(best);
  }
}

// Refused: the pairs below the diagonal, j < i, a bound that differs between
// the threads of a block.
#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 1000) \
    buffers(x[n] in, out[n] out)
__global__ void lower_pairs(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < i; j++)
      s += x[j] * x[i];
    out[i] = s;
  }
}
