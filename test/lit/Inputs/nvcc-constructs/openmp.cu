// A CUDA file with OpenMP host code (nvcc ... -Xcompiler -fopenmp): omp.h comes from the
// host compiler's include directory.
#include <omp.h>

#if defined(REQUIRE_OPENMP) && !defined(_OPENMP)
#error "_OPENMP is not defined"
#endif

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

void scale_on_devices(float **x, int n, int devices) {
  omp_set_num_threads(devices);
#pragma omp parallel
  {
    int id = omp_get_thread_num();
    scale<<<(n + 255) / 256, 256>>>(x[id], 2.0f, n);
  }
}
