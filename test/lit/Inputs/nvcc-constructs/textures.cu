// Texture and surface object functions as nvcc's headers declare them.
__global__ void sample(cudaTextureObject_t tex, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float u = (i + 0.5f) / n;
  float2 d = make_float2(0.0f, 0.0f);
  out[i] = tex1D<float>(tex, u) + tex2D<float>(tex, u, u) + tex3D<float>(tex, u, u, u) +
           tex1Dfetch<float>(tex, i) + texCubemap<float>(tex, u, u, 1.0f) +
           tex2DLayered<float>(tex, u, u, 0) + tex2DLod<float>(tex, u, u, 0.0f) +
           tex2DGrad<float>(tex, u, u, d, d);
}

__global__ void copy_surface(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w)
    return;
  float v = surf2Dread<float>(in, x * 4, y);
  uchar4 c;
  surf2Dread(&c, in, x * 4, y, cudaBoundaryModeClamp);
  surf2Dwrite(v + c.x, out, x * 4, y);
  surf1Dwrite(v, out, x * 4);
  surf3Dwrite(v, out, x * 4, y, 0);
  surf2DLayeredwrite(v, out, x * 4, y, 1);
}

#ifdef WRONG_ARITY
__global__ void wrong(cudaTextureObject_t tex, float *out) { out[0] = tex2D<float>(tex, 0.5f); }
#endif
