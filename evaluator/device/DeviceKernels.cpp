#include "evaluator/device/DeviceKernels.h"

#include "evaluator/compile/KernelCompiler.h"
#include "evaluator/workload/InputGenerator.h"
#include "evaluator/workload/ScalarType.h"

namespace kopt::evaluator {

namespace {
// Mirrors InputGenerator.cpp (generation) and OutputComparison.cpp (the
// ratio), operation for operation; compiled with --fmad=false so the device
// rounds the tolerance bound exactly as the host does. Type codes are
// ScalarType's values, spelled out in the static_asserts below.
const char *const Source = R"(
typedef unsigned long long u64;
typedef long long i64;

__device__ __forceinline__ u64 mixBits(u64 z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Half bits of a float that a half represents exactly (|v| >= 2^-14 or 0).
__device__ __forceinline__ unsigned short exactHalf(float v) {
  unsigned b = __float_as_uint(v);
  unsigned short s = (unsigned short)((b >> 16) & 0x8000u);
  if ((b & 0x7fffffffu) == 0)
    return s;
  int e = (int)((b >> 23) & 0xffu) - 127 + 15;
  return (unsigned short)(s | (e << 10) | ((b >> 13) & 0x3ffu));
}

enum { Bool, I8, U8, I16, U16, I32, U32, I64, U64, F16, BF16, F32, F64 };

// Two's complement in the type's width (little-endian: the low bytes).
__device__ __forceinline__ void storeInteger(unsigned char *out, u64 i, int type, i64 n) {
  switch (type) {
  case Bool: out[i] = n != 0; break;
  case I8: case U8: out[i] = (unsigned char)n; break;
  case I16: case U16: ((unsigned short *)out)[i] = (unsigned short)n; break;
  case I32: case U32: ((unsigned *)out)[i] = (unsigned)n; break;
  default: ((u64 *)out)[i] = (u64)n; break;
  }
}

// InputGenerator.cpp's generateInRange (--fmad=false: the same roundings).
__device__ __forceinline__ void generateInRange(unsigned char *out, u64 i, u64 h, int type,
                                                double lo, double hi) {
  double t = (double)(h >> 11) * 0x1p-53;
  double span = hi - lo;
  if (type == F32) {
    ((float *)out)[i] = (float)(lo + t * span);
    return;
  }
  if (type == F64) {
    ((double *)out)[i] = lo + t * span;
    return;
  }
  storeInteger(out, i, type, (i64)lo + (i64)floor(t * span));
}

// How a buffer's elements are drawn: InputGenerator.h's generateElement with
// its range (ranged, lo, hi), offsets layout (offsets, mean, jitter) and
// local indices (local, count).
struct Layout {
  int ranged;
  double lo, hi;
  int offsets;
  u64 mean, jitter;
  int local;
  u64 count;
};

// InputGenerator.h's localIndexElement.
__device__ __forceinline__ u64 localIndexElement(u64 h, u64 i, u64 count, u64 span) {
  const u64 w = 256 < span / 2 ? 256 : span / 2;
  const u64 centre = span >= count ? i * (span / count) : i / ((count + span - 1) / span);
  return (centre % span + span - w + h % (2 * w + 1)) % span;
}

// Element `index` of the stream, stored at out[i].
__device__ __forceinline__ void generateOne(unsigned char *out, u64 i, u64 index, u64 key,
                                            int type, const Layout &l) {
  u64 h = mixBits(key + (index + 1) * 0x9E3779B97F4A7C15ull);
  if (l.offsets && type != F16 && type != BF16 && type != F32 && type != F64) {
    // InputGenerator.h's offsetsElement.
    storeInteger(out, i, type, (i64)(index == 0 ? 0 : index * l.mean + h % (l.jitter + 1)));
    return;
  }
  if (l.local && l.ranged && l.count > 0 && type != F16 && type != BF16 && type != F32 &&
      type != F64) {
    storeInteger(out, i, type, (i64)l.lo + (i64)localIndexElement(h, index, l.count,
                                                                (u64)(l.hi - l.lo)));
    return;
  }
  if (l.ranged) {
    generateInRange(out, i, h, type, l.lo, l.hi);
    return;
  }
  u64 small = h >> 60;
  switch (type) {
  case F32: ((float *)out)[i] = (float)(h >> 40) * 0x1p-23f - 1.0f; break;
  case F64: ((double *)out)[i] = (double)(h >> 11) * 0x1p-52 - 1.0; break;
  case F16: ((unsigned short *)out)[i] = exactHalf((float)(h >> 53) * 0x1p-10f - 1.0f); break;
  case BF16:
    ((unsigned short *)out)[i] =
        (unsigned short)(__float_as_uint((float)(h >> 56) * 0x1p-7f - 1.0f) >> 16);
    break;
  case Bool: out[i] = (unsigned char)(h >> 63); break;
  case I8: case U8: out[i] = (unsigned char)small; break;
  case I16: case U16: ((unsigned short *)out)[i] = (unsigned short)small; break;
  case I32: case U32: ((unsigned *)out)[i] = (unsigned)small; break;
  default: ((u64 *)out)[i] = small; break;
  }
}

extern "C" __global__ void kopt_generate(unsigned char *out, u64 count, u64 key, int type,
                                         Layout layout) {
  u64 stride = (u64)gridDim.x * blockDim.x;
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
    generateOne(out, i, i, key, type, layout);
}

__device__ __forceinline__ int sizeOf(int type) {
  switch (type) {
  case Bool: case I8: case U8: return 1;
  case I16: case U16: case F16: case BF16: return 2;
  case I32: case U32: case F32: return 4;
  default: return 8;
  }
}

__device__ __forceinline__ u64 rawBits(const unsigned char *p, u64 i, int size) {
  switch (size) {
  case 1: return p[i];
  case 2: return ((const unsigned short *)p)[i];
  case 4: return ((const unsigned *)p)[i];
  default: return ((const u64 *)p)[i];
  }
}

__device__ __forceinline__ double asDouble(u64 bits, int type) {
  switch (type) {
  case Bool: return bits != 0 ? 1.0 : 0.0;
  case I8: return (double)(signed char)bits;
  case U8: return (double)(unsigned char)bits;
  case I16: return (double)(short)bits;
  case U16: return (double)(unsigned short)bits;
  case I32: return (double)(int)bits;
  case U32: return (double)(unsigned)bits;
  case I64: return (double)(i64)bits;
  case U64: return (double)bits;
  case F16: {
    unsigned sign = (bits >> 15) & 1, e = (bits >> 10) & 0x1f, m = bits & 0x3ff;
    double v;
    if (e == 0)
      v = ldexp((double)m, -24);
    else if (e == 31)
      v = m ? __longlong_as_double(0x7ff8000000000000ll) : __longlong_as_double(0x7ff0000000000000ll);
    else
      v = ldexp((double)(m | 0x400), (int)e - 25);
    return sign ? -v : v;
  }
  case BF16: return (double)__uint_as_float((unsigned)bits << 16);
  case F32: return (double)__uint_as_float((unsigned)bits);
  default: return __longlong_as_double((i64)bits);
  }
}

__device__ __forceinline__ bool isNan(double d) { return d != d; }
__device__ __forceinline__ bool isInf(double d) {
  return (__double_as_longlong(d) & 0x7fffffffffffffffll) == 0x7ff0000000000000ll;
}

// OutputComparison.cpp's mismatchRatio.
__device__ double mismatchRatio(double got, double expected, double rtol, double atol) {
  const double inf = __longlong_as_double(0x7ff0000000000000ll);
  if (isNan(expected) || isNan(got))
    return isNan(expected) && isNan(got) ? 0 : inf;
  if (isInf(expected) || isInf(got))
    return got == expected ? 0 : inf;
  double diff = fabs(got - expected);
  double bound = atol + rtol * fabs(expected);
  if (diff == 0)
    return 0;
  if (bound == 0)
    return inf;
  return diff / bound;
}

struct Partial {
  u64 mismatches, first;
  double worstRatio;
  u64 worstIndex;
};

__device__ __forceinline__ void merge(Partial &a, const Partial &b) {
  a.mismatches += b.mismatches;
  a.first = b.first < a.first ? b.first : a.first;
  if (b.worstRatio > a.worstRatio ||
      (b.worstRatio == a.worstRatio && b.worstIndex < a.worstIndex)) {
    a.worstRatio = b.worstRatio;
    a.worstIndex = b.worstIndex;
  }
}

extern "C" __global__ void __launch_bounds__(256)
kopt_compare(const unsigned char *got, const unsigned char *expected, u64 key, u64 count,
             int type, double rtol, double atol, int bytewise, Partial *partials, Layout layout) {
  const double inf = __longlong_as_double(0x7ff0000000000000ll);
  bool exact = bytewise || !(type == F16 || type == BF16 || type == F32 || type == F64);
  int size = sizeOf(type);
  Partial mine = {0, ~0ull, -1.0, ~0ull};
  u64 stride = (u64)gridDim.x * blockDim.x;
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    u64 g = rawBits(got, i, size), e;
    if (expected) {
      e = rawBits(expected, i, size);
    } else {
      u64 slot = 0;
      generateOne((unsigned char *)&slot, 0, i, key, type, layout);
      e = slot;
    }
    if (g == e)
      continue; // Bitwise equal: passes for every type (NaN payloads included).
    double r = exact ? inf : mismatchRatio(asDouble(g, type), asDouble(e, type), rtol, atol);
    if (r <= 1)
      continue;
    if (r != r)
      r = inf;
    ++mine.mismatches;
    if (mine.first == ~0ull)
      mine.first = i;
    if (r > mine.worstRatio) {
      mine.worstRatio = r;
      mine.worstIndex = i;
    }
  }
  __shared__ Partial all[256];
  all[threadIdx.x] = mine;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      merge(all[threadIdx.x], all[threadIdx.x + half]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partials[blockIdx.x] = all[0];
}
)";
} // namespace

static_assert(LocalIndexWindow == 256, "the device source's localIndexElement spells it out");
static_assert(static_cast<int>(ScalarType::Bool) == 0 && static_cast<int>(ScalarType::F16) == 9 &&
                  static_cast<int>(ScalarType::BF16) == 10 &&
                  static_cast<int>(ScalarType::F32) == 11 &&
                  static_cast<int>(ScalarType::F64) == 12,
              "the device source's type codes");

llvm::Expected<CompiledKernel> compileDeviceKernels(const std::string &Arch) {
  return compileKernel(
      KernelSource{Source, "kopt_generate", "kopt_generate", {"--fmad=false", "-std=c++17"}}, Arch);
}

llvm::Expected<DeviceKernels> DeviceKernels::load(CudaDriver &Driver, const std::string &Arch) {
  auto Compiled = compileDeviceKernels(Arch);
  if (!Compiled)
    return llvm::createStringError("the evaluator's own kernels do not compile: " +
                                   llvm::toString(Compiled.takeError()));
  DeviceKernels K; // The module lives as long as the context (one session).
  if (auto E = Driver.check(Driver.ModuleLoadData(&K.Module, Compiled->Cubin.data()),
                            "cuModuleLoadData"))
    return E;
  // extern "C": the symbols are the names.
  if (auto E = Driver.check(Driver.ModuleGetFunction(&K.Generate, K.Module, "kopt_generate"),
                            "cuModuleGetFunction"))
    return E;
  if (auto E = Driver.check(Driver.ModuleGetFunction(&K.Compare, K.Module, "kopt_compare"),
                            "cuModuleGetFunction"))
    return E;
  return K;
}

} // namespace kopt::evaluator
