// The kernel kopt-recording-write's fake device "launches": a bare pragma, so
// its workload is the recording's.
#pragma kopt optimize budget(evals = 1)
__global__ void lu_update(float *a, const float *pivots, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - k)
    a[i] = a[i] / pivots[k];
}
