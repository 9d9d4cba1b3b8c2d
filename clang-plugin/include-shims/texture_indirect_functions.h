// Shipped by kopt. clang 19's CUDA wrapper includes texture_indirect_functions.h after its
// own __nv_tex_surf_handler (__clang_cuda_texture_intrinsics.h): CUDA 13's header then
// declares the texture object functions (tex1Dfetch, tex2D, tex3D, texCubemap,
// tex2DLayered, tex2DLod, tex2DGrad, tex2Dgather, ...) with clang's implementation.
#pragma once
#include_next <texture_indirect_functions.h>
