// Index expressions as integer polynomials, for transforms and features that
// must know exactly which element a thread reads: A[(i - 1) * n + j] with
// i = blockIdx.y * blockDim.y + threadIdx.y is n*g_y + g_x - n over the
// thread's positions g_c = blockIdx.c * blockDim.c + threadIdx.c and the
// parameter n. Local variables are followed to their initializers where they
// are never written after it; anything that is not a sum of products (a
// division, min, a conditional) becomes an opaque atom whose operands are
// checked the same way. Reading memory, calling functions other than min, max
// and abs, or reading the thread geometry other than through g_c is an error
// that names the line and column.
#pragma once

#include "clang-plugin/analysis/Polynomial.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/FoldingSet.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class SourceLocation;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace kopt::frontend {

enum class AtomKind : uint8_t {
  Position, // g_c of a dimension the kernel reads threadIdx of.
  BlockIdx, // blockIdx.c: in a result only for a dimension without threadIdx.c.
  BlockDim, // blockDim.c: never in a result (it cancels in g_c or is an error).
  Param,    // A scalar integer parameter never written.
  LoopVar,  // A loop variable the caller enumerates (addLoopVar).
  Opaque,   // Anything else that reads no memory: n / 2, max(x - 1, 0).
};

struct PolyAtom {
  AtomKind Kind = AtomKind::Param;
  char Dim = 0;                           // Position, BlockIdx.
  const clang::ValueDecl *Decl = nullptr; // Param, LoopVar.
  const clang::Expr *Expr = nullptr;      // Opaque: the expression as written.
  unsigned PositionDims = 0;              // Opaque: positions it reads (bit 0 x, 1 y, 2 z).
  bool ReadsLoopVar = false;              // Opaque: it reads a loop variable.
};

// Polynomials over atom ids (PolyAtom, numbered by IndexPolyBuilder).
using IndexPoly = Polynomial<unsigned>;
// Atom ids in ascending order, repeated for powers.
using Monomial = IndexPoly::Monomial;

class IndexPolyBuilder {
public:
  // ThreadDims: the dimensions whose threadIdx the kernel reads (bit 0 x, ...).
  IndexPolyBuilder(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel);

  // E's value. Fails (with "line L:C: why") where E reads memory, calls a
  // function, reads the geometry other than as positions, or is not integer.
  llvm::Expected<IndexPoly> build(const clang::Expr *E);

  // A variable whose value the caller enumerates: it becomes an atom.
  void addLoopVar(const clang::VarDecl *V);
  bool isLoopVar(const clang::ValueDecl *D) const { return LoopVars.count(D) > 0; }

  const PolyAtom &atom(unsigned Id) const { return Atoms[Id]; }
  unsigned atomCount() const { return Atoms.size(); }
  unsigned threadDims() const { return ThreadDims; }
  // The id of g_c, creating it.
  unsigned positionAtom(char Dim);

  // Whether P depends on no thread position, loop variable or opaque atom
  // that reads either: the same for every thread of a block.
  bool isUniform(const IndexPoly &P) const;
  // The position dimensions P reads (bit mask), through opaque atoms too.
  unsigned positionDims(const IndexPoly &P) const;
  bool readsLoopVar(const IndexPoly &P) const;

  // A local variable or parameter is fixed when every use reads its value:
  // never assigned, incremented or bound to a reference after its declaration.
  bool isFixed(const clang::VarDecl *V) const { return !Written.count(V); }

  // "line L:C: Why" for errors about the kernel's code.
  llvm::Error error(clang::SourceLocation Loc, const llvm::Twine &Why) const;

private:
  llvm::Expected<IndexPoly> visit(const clang::Expr *E, unsigned Depth);
  llvm::Expected<IndexPoly> opaque(const clang::Expr *E, unsigned Depth);
  llvm::Expected<IndexPoly> geometry(const clang::Expr *E);
  unsigned intern(PolyAtom A, const llvm::FoldingSetNodeID &Key);
  // Fails where P still reads blockIdx or blockDim of a thread dimension.
  llvm::Error checkPositions(const IndexPoly &P, const clang::Expr *E) const;

  clang::ASTContext &Ctx;
  const clang::FunctionDecl &Kernel;
  unsigned ThreadDims = 0;
  std::vector<PolyAtom> Atoms;
  std::vector<std::pair<llvm::FoldingSetNodeID, unsigned>> AtomIds; // By kind and identity.
  std::set<const clang::ValueDecl *> LoopVars;
  std::set<const clang::VarDecl *> Written;
  llvm::DenseMap<const clang::Expr *, IndexPoly> Cache;
};

// The thread dimensions whose threadIdx a function body reads (bit mask).
unsigned threadDimsRead(const clang::FunctionDecl &Kernel);

} // namespace kopt::frontend
