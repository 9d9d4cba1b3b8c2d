// Shipped by kopt. The surface object functions of CUDA's surface_indirect_functions.h,
// declared for clang: nvcc's headers define them over a compiler builtin that clang 19
// does not implement (its __nv_tex_surf_handler knows only texture operations), so clang's
// CUDA wrapper leaves them out. Declared, not defined: kopt's parse analyses code that
// calls them; a clang build of such code fails to link them, as it failed to parse before.
#pragma once

// cudaBoundaryModeTrap, as in CUDA's own declarations.
#define KOPT_SURF_MODE cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap

// surfNread(&value, obj, coords...) and value = surfNread<T>(obj, coords...).
#define KOPT_SURF_READ(NAME, ...)                                                                  \
  template <class T>                                                                               \
  __device__ void NAME(T *value, cudaSurfaceObject_t obj, __VA_ARGS__, KOPT_SURF_MODE);            \
  template <class T> __device__ T NAME(cudaSurfaceObject_t obj, __VA_ARGS__, KOPT_SURF_MODE);

// surfNwrite(value, obj, coords...).
#define KOPT_SURF_WRITE(NAME, ...)                                                                 \
  template <class T>                                                                               \
  __device__ void NAME(T value, cudaSurfaceObject_t obj, __VA_ARGS__, KOPT_SURF_MODE);

KOPT_SURF_READ(surf1Dread, int x)
KOPT_SURF_READ(surf2Dread, int x, int y)
KOPT_SURF_READ(surf3Dread, int x, int y, int z)
KOPT_SURF_READ(surf1DLayeredread, int x, int layer)
KOPT_SURF_READ(surf2DLayeredread, int x, int y, int layer)
KOPT_SURF_READ(surfCubemapread, int x, int y, int face)
KOPT_SURF_READ(surfCubemapLayeredread, int x, int y, int layerFace)

KOPT_SURF_WRITE(surf1Dwrite, int x)
KOPT_SURF_WRITE(surf2Dwrite, int x, int y)
KOPT_SURF_WRITE(surf3Dwrite, int x, int y, int z)
KOPT_SURF_WRITE(surf1DLayeredwrite, int x, int layer)
KOPT_SURF_WRITE(surf2DLayeredwrite, int x, int y, int layer)
KOPT_SURF_WRITE(surfCubemapwrite, int x, int y, int face)
KOPT_SURF_WRITE(surfCubemapLayeredwrite, int x, int y, int layerFace)

#undef KOPT_SURF_READ
#undef KOPT_SURF_WRITE
#undef KOPT_SURF_MODE
