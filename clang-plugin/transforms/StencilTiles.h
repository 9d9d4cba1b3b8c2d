// The code stencil-tiling and stencil-streaming generate from a StencilIdiom:
// the shared-memory tiles, one reader test a condition set (whether the
// thread at a given position reads a cell, evaluated where the tiles load),
// the cooperative loads (consecutive threads take cells adjacent in memory,
// each cell loaded only where a reader test holds), and the text that
// replaces each read the tiles serve.
#pragma once

#include "clang-plugin/transforms/StencilIdiom.h"

#include <array>
#include <string>

namespace clang {
class CompoundStmt;
} // namespace clang

namespace kopt::transform {

struct TileLayout {
  std::array<int64_t, 3> Block{1, 1, 1}; // Threads of the block, x y z.
  // stencil-streaming: the block is one plane and z is a ring of planes; a
  // tile holds Hi.z - Lo.z + 1 planes, slot (s + dz - Lo.z) % planes.
  bool Ring = false;
};

// The kernel's body where stencil-tiling and stencil-streaming can rewrite it:
// no __launch_bounds__ (the block changes), a plain block.
llvm::Expected<const clang::CompoundStmt *> stencilBody(const UnitAST &U);

class StencilCode {
public:
  StencilCode(const UnitAST &U, frontend::IndexPolyBuilder &B, const StencilIdiom &S, TileLayout L);

  // Cells of group G's tile in dimension D (for the ring's z: its planes).
  int64_t extent(unsigned G, int D) const;
  int64_t sharedBytes() const;
  // Fails where the tiles need more than the 48 KiB a block gets statically.
  llvm::Error checkSharedBytes() const;

  // The __shared__ tiles and the reader tests (lambdas), for the top of the
  // kernel's body; before loads().
  llvm::Expected<std::string> declarations();
  // The loads of group G's cells: the whole tile, or with PlaneZ (a C
  // expression of the plane's z position) one plane into ring slot Slot.
  llvm::Expected<std::string> loads(unsigned G, llvm::StringRef PlaneZ = "",
                                    llvm::StringRef Slot = "");
  // The expression that replaces read R: the tile's cell where a leaf that a
  // tile serves applies, else Fallback (the read as written). Step names the
  // ring's step counter; Own gives the thread's own positions that differ from
  // what the kernel computes (the ring's z), for the leaves' conditions.
  llvm::Expected<std::string> readText(const TileRead &R, llvm::StringRef Fallback,
                                       const std::array<std::string, 3> &Own,
                                       llvm::StringRef Step = "");

private:
  std::string tileName(unsigned G) const { return "kopt_tile" + std::to_string(G); }
  std::string offsetText(const frontend::IndexPoly &Delta, int64_t Shift) const;
  llvm::Expected<std::string> cellTest(unsigned G);
  bool tiled(int D) const { return S.Dims & (1u << D); }

  const UnitAST &U;
  frontend::IndexPolyBuilder &B;
  const StencilIdiom &S;
  TileLayout L;
  std::vector<std::string> Lambdas;                // Their definitions.
  std::vector<std::vector<Condition>> LambdaConds; // What each one tests.
  std::vector<std::vector<const clang::VarDecl *>> LambdaLoops;
};

} // namespace kopt::transform
