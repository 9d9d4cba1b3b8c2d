// What CUDA's headers declare for variants that read 16-byte fragments, and
// the snippets' units lack (they are parsed without CUDA's headers): the
// planner tests pass it with -include.
#pragma once

#define __align__(n) __attribute__((aligned(n)))
struct __attribute__((aligned(16))) float4 {
  float x, y, z, w;
};
