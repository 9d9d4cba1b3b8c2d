#include "clang-plugin/analysis/Enumerators.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>

#include <string>
#include <vector>

namespace kopt::frontend {

namespace {
// The scopes around an enumerator, innermost first ({"Mode", "ns"}); an
// unscoped enum's name is optional in C++, so it is marked Optional.
struct Scope {
  std::string Name;
  bool Optional = false;
};

std::vector<Scope> scopesOf(const clang::EnumConstantDecl &E) {
  std::vector<Scope> Out;
  for (const clang::DeclContext *DC = E.getDeclContext(); DC && !DC->isTranslationUnit();
       DC = DC->getParent()) {
    if (const auto *Enum = llvm::dyn_cast<clang::EnumDecl>(DC)) {
      if (!Enum->getName().empty())
        Out.push_back({Enum->getNameAsString(), !Enum->isScoped()});
    } else if (const auto *Named = llvm::dyn_cast<clang::NamedDecl>(DC)) {
      if (Named->getName().empty())
        continue; // Anonymous namespaces and structs add no qualifier.
      Out.push_back({Named->getNameAsString(), false});
    }
  }
  return Out;
}

void collect(const clang::DeclContext &DC,
             llvm::function_ref<void(const clang::EnumConstantDecl &)> Fn) {
  for (const clang::Decl *D : DC.decls()) {
    if (const auto *E = llvm::dyn_cast<clang::EnumConstantDecl>(D)) {
      Fn(*E);
      continue;
    }
    const auto *Inner = llvm::dyn_cast<clang::DeclContext>(D);
    if (!Inner || llvm::isa<clang::FunctionDecl>(D) || D->isInvalidDecl())
      continue;
    if (const auto *Record = llvm::dyn_cast<clang::CXXRecordDecl>(D);
        Record && (Record->isDependentContext() || !Record->hasDefinition()))
      continue;
    if (llvm::isa<clang::EnumDecl, clang::NamespaceDecl, clang::RecordDecl, clang::LinkageSpecDecl>(
            D))
      collect(*Inner, Fn);
  }
}
} // namespace

EnumeratorIndex::EnumeratorIndex(const clang::ASTContext &Ctx) {
  collect(*Ctx.getTranslationUnitDecl(), [&](const clang::EnumConstantDecl &E) {
    const llvm::APSInt &V = E.getInitVal();
    if (V.getSignificantBits() > 64 || (V.isUnsigned() && V.getActiveBits() > 63))
      return;
    int64_t Value = V.getExtValue();
    std::vector<Scope> Scopes = scopesOf(E);
    // The spellings qualified by the innermost I scopes (each optional one
    // there or not); those with every scope are the enumerator's whole name.
    std::vector<std::string> Level = {E.getNameAsString()};
    for (const Scope &S : Scopes) {
      for (const std::string &Name : Level)
        add(Name, Value, /*Qualified=*/false);
      std::vector<std::string> Next;
      for (const std::string &Name : Level) {
        Next.push_back(S.Name + "::" + Name);
        if (S.Optional)
          Next.push_back(Name);
      }
      Level = std::move(Next);
    }
    for (const std::string &Name : Level)
      add(Name, Value, /*Qualified=*/true);
  });
}

void EnumeratorIndex::add(llvm::StringRef Name, int64_t Value, bool Qualified) {
  auto [It, New] = Names.try_emplace(Name, Entry{Value, Qualified});
  if (New)
    return;
  Entry &E = It->second;
  if (Qualified && !E.Qualified)
    E = Entry{Value, true};
  else if (Qualified == E.Qualified && E.Value != Value)
    E.Value.reset();
}

std::optional<int64_t> EnumeratorIndex::valueOf(llvm::StringRef Name) const {
  Name.consume_front("::");
  auto It = Names.find(Name);
  return It == Names.end() ? std::nullopt : It->second.Value;
}

} // namespace kopt::frontend
