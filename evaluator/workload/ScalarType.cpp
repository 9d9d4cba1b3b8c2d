#include "evaluator/workload/ScalarType.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringSwitch.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <string>

namespace kopt::evaluator {

size_t sizeOf(ScalarType T) {
  switch (T) {
  case ScalarType::Bool:
  case ScalarType::I8:
  case ScalarType::U8:
    return 1;
  case ScalarType::I16:
  case ScalarType::U16:
  case ScalarType::F16:
  case ScalarType::BF16:
    return 2;
  case ScalarType::I32:
  case ScalarType::U32:
  case ScalarType::F32:
    return 4;
  case ScalarType::I64:
  case ScalarType::U64:
  case ScalarType::F64:
    return 8;
  }
  return 0;
}

bool isFloating(ScalarType T) {
  return T == ScalarType::F16 || T == ScalarType::BF16 || T == ScalarType::F32 ||
         T == ScalarType::F64;
}

llvm::StringRef spelling(ScalarType T) {
  static const char *const Names[] = {"bool", "i8",  "u8",  "i16",  "u16", "i32", "u32",
                                      "i64",  "u64", "f16", "bf16", "f32", "f64"};
  return Names[static_cast<unsigned>(T)];
}

std::optional<ScalarType> parseSpelling(llvm::StringRef S) {
  for (unsigned I = 0; I <= static_cast<unsigned>(ScalarType::F64); ++I)
    if (spelling(static_cast<ScalarType>(I)) == S)
      return static_cast<ScalarType>(I);
  return std::nullopt;
}

namespace {
// The type's words without qualifiers, pointers and restrict: "unsigned int".
std::string baseTypeWords(llvm::StringRef CType) {
  std::string Words;
  llvm::SmallVector<llvm::StringRef, 8> Tokens;
  std::string Spaced;
  for (char C : CType)
    Spaced += (C == '*' || C == '&') ? ' ' : C;
  llvm::StringRef(Spaced).split(Tokens, ' ', -1, false);
  for (llvm::StringRef Tok : Tokens) {
    if (Tok == "const" || Tok == "volatile" || Tok == "__restrict" || Tok == "__restrict__" ||
        Tok == "restrict" || Tok == "struct")
      continue;
    if (!Words.empty())
      Words += ' ';
    Words += Tok.str();
  }
  return Words;
}
} // namespace

std::optional<ScalarType> scalarTypeOfCType(llvm::StringRef CType) {
  std::string Base = baseTypeWords(CType);
  return llvm::StringSwitch<std::optional<ScalarType>>(Base)
      .Cases("bool", "_Bool", ScalarType::Bool)
      .Cases("char", "signed char", "int8_t", "std::int8_t", ScalarType::I8)
      .Cases("unsigned char", "uint8_t", "std::uint8_t", ScalarType::U8)
      .Cases("short", "short int", "signed short", "int16_t", "std::int16_t", ScalarType::I16)
      .Cases("unsigned short", "unsigned short int", "uint16_t", "std::uint16_t", ScalarType::U16)
      .Cases("int", "signed int", "signed", "int32_t", "std::int32_t", ScalarType::I32)
      .Cases("unsigned int", "unsigned", "uint32_t", "std::uint32_t", ScalarType::U32)
      .Cases("long", "long int", "long long", "long long int", "int64_t", ScalarType::I64)
      .Cases("std::int64_t", "ptrdiff_t", "std::ptrdiff_t", "ssize_t", ScalarType::I64)
      .Cases("unsigned long", "unsigned long int", "unsigned long long", "uint64_t",
             ScalarType::U64)
      .Cases("unsigned long long int", "std::uint64_t", "size_t", "std::size_t", ScalarType::U64)
      .Cases("__half", "half", ScalarType::F16)
      .Cases("__nv_bfloat16", "nv_bfloat16", ScalarType::BF16)
      .Case("float", ScalarType::F32)
      .Case("double", ScalarType::F64)
      .Default(std::nullopt);
}

std::optional<VectorType> vectorTypeOfCType(llvm::StringRef CType) {
  std::string Owned = baseTypeWords(CType);
  llvm::StringRef Base = Owned;
  if (Base.consume_front("__"))
    Base.consume_front("nv_");
  if (Base == "half2")
    return VectorType{ScalarType::F16, 2};
  if (Base == "bfloat162")
    return VectorType{ScalarType::BF16, 2};
  // double4 has 16- and 32-byte aligned spellings since CUDA 13.
  if (Base.consume_back("_16a") || Base.consume_back("_32a"))
    if (!Base.starts_with("double") && !Base.starts_with("long") && !Base.starts_with("ulong"))
      return std::nullopt;
  if (Base.empty() || Base.back() < '1' || Base.back() > '4')
    return std::nullopt;
  unsigned Lanes = Base.back() - '0';
  std::optional<ScalarType> Scalar = llvm::StringSwitch<std::optional<ScalarType>>(Base.drop_back())
                                         .Case("char", ScalarType::I8)
                                         .Case("uchar", ScalarType::U8)
                                         .Case("short", ScalarType::I16)
                                         .Case("ushort", ScalarType::U16)
                                         .Case("int", ScalarType::I32)
                                         .Case("uint", ScalarType::U32)
                                         .Cases("long", "longlong", ScalarType::I64)
                                         .Cases("ulong", "ulonglong", ScalarType::U64)
                                         .Case("float", ScalarType::F32)
                                         .Case("double", ScalarType::F64)
                                         .Default(std::nullopt);
  if (!Scalar)
    return std::nullopt;
  return VectorType{*Scalar, Lanes};
}

bool isPointerCType(llvm::StringRef CType) { return CType.contains('*'); }

namespace {
float halfToFloat(uint16_t H) {
  uint32_t Sign = (H >> 15) & 1, Exp = (H >> 10) & 0x1f, Mant = H & 0x3ff;
  float V;
  if (Exp == 0)
    V = std::ldexp(static_cast<float>(Mant), -24);
  else if (Exp == 31)
    V = Mant ? NAN : INFINITY;
  else
    V = std::ldexp(static_cast<float>(Mant | 0x400), static_cast<int>(Exp) - 25);
  return Sign ? -V : V;
}

uint16_t floatToHalf(float F) {
  uint32_t Bits = std::bit_cast<uint32_t>(F);
  uint16_t Sign = static_cast<uint16_t>((Bits >> 16) & 0x8000);
  float A = std::fabs(F);
  if (std::isnan(F))
    return Sign | 0x7e00;
  if (A >= 65520.0f)
    return Sign | 0x7c00;
  if (A < std::ldexp(1.0f, -24) / 2)
    return Sign;
  int Exp;
  std::frexp(A, &Exp);    // A = m * 2^Exp, m in [0.5, 1)
  int HalfExp = Exp + 14; // Biased exponent of the half.
  if (HalfExp <= 0) {     // Subnormal: units of 2^-24.
    auto Mant = static_cast<uint16_t>(std::nearbyint(std::ldexp(A, 24)));
    return Sign | Mant;
  }
  // 11 significant bits, rounded to nearest even by nearbyint.
  auto Sig = static_cast<uint32_t>(std::nearbyint(std::ldexp(A, 11 - Exp)));
  if (Sig == 2048) {
    Sig = 1024;
    ++HalfExp;
  }
  if (HalfExp >= 31)
    return Sign | 0x7c00;
  return static_cast<uint16_t>(Sign | (HalfExp << 10) | (Sig & 0x3ff));
}

float bf16ToFloat(uint16_t B) { return std::bit_cast<float>(static_cast<uint32_t>(B) << 16); }

uint16_t floatToBf16(float F) {
  uint32_t Bits = std::bit_cast<uint32_t>(F);
  if (std::isnan(F))
    return static_cast<uint16_t>((Bits >> 16) | 0x40);
  Bits += 0x7fff + ((Bits >> 16) & 1); // Round to nearest even.
  return static_cast<uint16_t>(Bits >> 16);
}

template <typename T> double load(const void *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return static_cast<double>(V);
}
template <typename T> void store(double D, void *P) {
  T V = static_cast<T>(D);
  std::memcpy(P, &V, sizeof(T));
}
} // namespace

double loadAsDouble(ScalarType T, const void *P) {
  switch (T) {
  case ScalarType::Bool:
    return load<uint8_t>(P) != 0;
  case ScalarType::I8:
    return load<int8_t>(P);
  case ScalarType::U8:
    return load<uint8_t>(P);
  case ScalarType::I16:
    return load<int16_t>(P);
  case ScalarType::U16:
    return load<uint16_t>(P);
  case ScalarType::I32:
    return load<int32_t>(P);
  case ScalarType::U32:
    return load<uint32_t>(P);
  case ScalarType::I64:
    return load<int64_t>(P);
  case ScalarType::U64:
    return load<uint64_t>(P);
  case ScalarType::F16: {
    uint16_t H;
    std::memcpy(&H, P, 2);
    return halfToFloat(H);
  }
  case ScalarType::BF16: {
    uint16_t B;
    std::memcpy(&B, P, 2);
    return bf16ToFloat(B);
  }
  case ScalarType::F32:
    return load<float>(P);
  case ScalarType::F64:
    return load<double>(P);
  }
  return 0;
}

void storeFromDouble(ScalarType T, double V, void *P) {
  switch (T) {
  case ScalarType::Bool:
    return store<uint8_t>(V != 0 ? 1 : 0, P);
  case ScalarType::I8:
    return store<int8_t>(V, P);
  case ScalarType::U8:
    return store<uint8_t>(V, P);
  case ScalarType::I16:
    return store<int16_t>(V, P);
  case ScalarType::U16:
    return store<uint16_t>(V, P);
  case ScalarType::I32:
    return store<int32_t>(V, P);
  case ScalarType::U32:
    return store<uint32_t>(V, P);
  case ScalarType::I64:
    return store<int64_t>(V, P);
  case ScalarType::U64:
    return store<uint64_t>(V, P);
  case ScalarType::F16: {
    uint16_t H = floatToHalf(static_cast<float>(V));
    std::memcpy(P, &H, 2);
    return;
  }
  case ScalarType::BF16: {
    uint16_t B = floatToBf16(static_cast<float>(V));
    std::memcpy(P, &B, 2);
    return;
  }
  case ScalarType::F32:
    return store<float>(V, P);
  case ScalarType::F64:
    return store<double>(V, P);
  }
}

} // namespace kopt::evaluator
