// Shipped by kopt. clang 19's CUDA wrapper includes texture_fetch_functions.h (the texture
// reference functions, which CUDA 12 removed) after CUDA's math headers. kopt uses that
// place to declare what CUDA's headers give nvcc and clang's wrapper does not.
#pragma once
#include "kopt/host_min_max.h"
#include "kopt/surface_functions.h"
