// The stencil idiom: a 2-D or 3-D kernel whose threads each read input arrays
// at fixed offsets from their own position (A[(i + di) * n + j + dj],
// A[i + di][j + dj], offsets constant or from loops with literal bounds, or
// clamped at the edges with min, max or a conditional). stencil-tiling and
// stencil-streaming stage those reads through shared-memory tiles.
//
// What keeps the staging exact: an input is tiled only where the kernel never
// writes it; a cell p of a tile is loaded only where the original kernel reads
// it too, from the thread at p - d that reaches a read at offset d (its
// conditions evaluated for that thread: a load never touches memory the
// original did not); and a read is served from a tile only where that rule
// loaded the cell it reads. Everything else keeps reading global memory.
#pragma once

#include "clang-plugin/analysis/IndexPolynomial.h"
#include "clang-plugin/transforms/stencil/ThreadPositions.h"

#include <array>
#include <map>
#include <vector>

namespace clang {
class ArraySubscriptExpr;
class ParmVarDecl;
class VarDecl;
} // namespace clang

namespace kopt::transform {

using Offset = std::array<int64_t, 3>; // x, y, z.

// One way a read resolves: at the thread's position plus Delta (polynomials in
// the loop variables around the read) where Conds hold (they come from a
// min, max or conditional in the index). Fixed: the coordinate does not follow
// the thread (the edge a clamp picks); such a leaf reads global memory.
struct ReadLeaf {
  std::array<frontend::IndexPoly, 3> Delta;
  std::vector<Condition> Conds;
  bool Fixed = false;
};

// A read of a tiled input that a tile serves.
struct TileRead {
  const clang::ArraySubscriptExpr *Access = nullptr; // The outermost subscript.
  unsigned Group = 0;
  std::vector<ReadLeaf> Leaves; // A plain read has one leaf without conditions.
};

// A cell p of a tile is loaded where, for the thread at p - At, Conds hold
// with the loop variables at LoopValues: that thread reads the cell.
struct LoadEntry {
  Offset At{};
  std::vector<Condition> Conds;
  std::vector<std::pair<const clang::VarDecl *, int64_t>> LoopValues;
};

// One tile: an input array around one base (a 3-D array read by a 2-D kernel
// at three planes has three). The element at position p is
// Array[Base + sum of Stride[c] * p_c].
struct TileGroup {
  const clang::ParmVarDecl *Array = nullptr;
  std::string Element; // The element type as the unit spells it.
  int64_t ElementBytes = 0;
  bool Subscripted = false; // Array[i][j]: the loads go through a pointer to elements.
  frontend::IndexPoly Base;
  std::array<frontend::IndexPoly, 3> Stride;
  Offset Lo{}, Hi{}; // The tile covers the block's positions plus [Lo, Hi].
  char Fast = 'x';   // The dimension whose neighbouring cells are neighbours in memory.
  std::vector<LoadEntry> Entries;
};

struct LoopRange {
  int64_t Lo = 0, Hi = 0; // Inclusive.
};

struct StencilIdiom {
  unsigned Dims = 0; // Thread dimensions (bit 0 x, 1 y, 2 z).
  std::vector<TileGroup> Groups;
  std::vector<TileRead> Reads;
  std::map<const clang::VarDecl *, LoopRange> Loops; // Loops with literal bounds.
};

// The idiom in U's kernel, or why it is not there (line:col: reason). B is a
// builder for the same kernel; literal loops become its loop variables.
llvm::Expected<StencilIdiom> findStencilIdiom(const UnitAST &U, frontend::IndexPolyBuilder &B);

// Fails, naming the array, where a tile's array may alias an array the kernel
// writes: neither the pragma's noalias clause (NoAlias) nor __restrict__ on both.
llvm::Error checkTilesDoNotAlias(const UnitAST &U, const StencilIdiom &S, bool NoAlias);

// Fails, naming the read, where the kernel reads an array it writes at another
// element than the one it writes: an update in place (Gauss-Seidel), whose
// result depends on the order in which threads run.
llvm::Error checkInPlaceUpdates(const UnitAST &U, frontend::IndexPolyBuilder &B);

// Fails, naming the access, where a global memory access of the kernel runs
// without a condition bounding each position of Dims from above: blocks of
// another shape would run it on threads the original launch did not have.
llvm::Error checkBoundedAccesses(const UnitAST &U, frontend::IndexPolyBuilder &B, unsigned Dims);

// What the front end's features tell beforehand: 2-D (3-D where Need3D), no
// shared memory, barriers or warp intrinsics, not a template, a stencil kind;
// or why not.
Fit fitsStencil(const frontend::KernelSummary &Kernel, bool Need3D);

} // namespace kopt::transform
