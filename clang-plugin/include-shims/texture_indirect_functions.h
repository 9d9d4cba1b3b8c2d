// Shipped by kopt. clang 19's CUDA wrapper includes texture_indirect_functions.h, which CUDA 13
// no longer provides in a form clang parses; kopt's parse needs none of it.
#pragma once
