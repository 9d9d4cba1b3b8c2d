#pragma once
#include "scale.cuh"
