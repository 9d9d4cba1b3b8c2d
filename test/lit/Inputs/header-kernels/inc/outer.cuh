// A user header that includes another one beside it.
#pragma once
#include "inner.cuh"
