// The per-thread arrays of a kernel's body and how they are indexed. An array
// indexed only by constants and by counters of loops with constant bounds
// lives in registers once nvcc unrolls those loops; one indexed by data
// (`hist[img[i] / 16]++`, `stack[sp++]`) stays in local memory, where every
// access is a load or store through the cache hierarchy.
#pragma once

#include "clang-plugin/model/KernelFeatures.h"

#include <vector>

namespace clang {
class ASTContext;
class ArraySubscriptExpr;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace kopt::frontend {

struct LocalArrayUses {
  const clang::VarDecl *Array = nullptr;
  const clang::Stmt *Declaration = nullptr;                  // Its DeclStmt.
  std::vector<const clang::ArraySubscriptExpr *> Subscripts; // a[i], each.
  // A use other than a[i] (its address, a call's argument, sizeof), or null.
  const clang::Stmt *OtherUse = nullptr;
  bool DataIndexed = false;
};

// Every one-dimensional array of arithmetic elements and constant size that
// the body declares (not static, not shared or constant memory), in order.
std::vector<LocalArrayUses> findLocalArrays(const clang::FunctionDecl &Kernel,
                                            clang::ASTContext &Ctx);

// The features' summary of them (KernelFeatures::LocalArrays).
std::vector<LocalArray> summarizeLocalArrays(const clang::FunctionDecl &Kernel,
                                             clang::ASTContext &Ctx);

} // namespace kopt::frontend
