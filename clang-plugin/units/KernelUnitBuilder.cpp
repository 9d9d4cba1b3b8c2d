#include "clang-plugin/units/KernelUnitBuilder.h"

#include "clang-plugin/pragma/PragmaText.h"
#include "clang-plugin/units/CommandLineMacroTests.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/MacroInfo.h>
#include <clang/Lex/Preprocessor.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <set>

namespace kopt::frontend {

namespace {

// Calls Use for every declaration that a traversed declaration refers to.
class ReferenceVisitor : public clang::RecursiveASTVisitor<ReferenceVisitor> {
public:
  using Base = clang::RecursiveASTVisitor<ReferenceVisitor>;
  explicit ReferenceVisitor(llvm::function_ref<void(const clang::Decl *)> Callback)
      : Use(Callback) {}

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    Use(E->getDecl());
    if (const auto *Shadow = llvm::dyn_cast<clang::UsingShadowDecl>(E->getFoundDecl()))
      Use(Shadow->getIntroducer());
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr *E) {
    Use(E->getMemberDecl());
    return true;
  }
  bool VisitOverloadExpr(clang::OverloadExpr *E) {
    for (const clang::NamedDecl *D : E->decls()) {
      Use(D->getUnderlyingDecl());
      if (const auto *Shadow = llvm::dyn_cast<clang::UsingShadowDecl>(D))
        Use(Shadow->getIntroducer());
    }
    return true;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr *E) {
    Use(E->getConstructor());
    return true;
  }
  bool VisitTypedefTypeLoc(clang::TypedefTypeLoc TL) {
    Use(TL.getTypedefNameDecl());
    return true;
  }
  bool VisitTagTypeLoc(clang::TagTypeLoc TL) {
    Use(TL.getDecl());
    return true;
  }
  bool VisitTemplateSpecializationTypeLoc(clang::TemplateSpecializationTypeLoc TL) {
    Use(TL.getTypePtr()->getTemplateName().getAsTemplateDecl());
    return true;
  }
  bool VisitNamespaceAliasDecl(clang::NamespaceAliasDecl *D) {
    Use(D->getNamespace());
    return true;
  }
  bool VisitUsingDirectiveDecl(clang::UsingDirectiveDecl *D) {
    Use(D->getNominatedNamespace());
    return true;
  }
  bool TraverseNestedNameSpecifierLoc(clang::NestedNameSpecifierLoc NNS) {
    for (clang::NestedNameSpecifierLoc Q = NNS; Q; Q = Q.getPrefix()) {
      const clang::NestedNameSpecifier *Spec = Q.getNestedNameSpecifier();
      if (const clang::NamespaceAliasDecl *Alias = Spec->getAsNamespaceAlias())
        Use(Alias);
      else if (const clang::NamespaceDecl *NS = Spec->getAsNamespace())
        Use(NS);
    }
    return Base::TraverseNestedNameSpecifierLoc(NNS);
  }

private:
  llvm::function_ref<void(const clang::Decl *)> Use;
};

// The declaration whose text a use of D needs: the outermost record or
// template around it, at namespace scope, and its definition where there is
// one. Null for what the unit needs no text for (locals, parameters, builtins).
const clang::Decl *declToCopy(const clang::Decl *D) {
  while (D) {
    if (llvm::isa<clang::ParmVarDecl, clang::TemplateTypeParmDecl, clang::NonTypeTemplateParmDecl,
                  clang::TemplateTemplateParmDecl>(D))
      return nullptr;
    if (const auto *EC = llvm::dyn_cast<clang::EnumConstantDecl>(D)) {
      D = llvm::cast<clang::Decl>(EC->getDeclContext());
      continue;
    }
    // typedef enum { ... } Mode_t; (or struct): the typedef holds the tag's
    // text, which copied alone would be declared twice.
    if (const auto *Tag = llvm::dyn_cast<clang::TagDecl>(D))
      if (const clang::TypedefNameDecl *Named = Tag->getTypedefNameForAnonDecl())
        D = Named;
    if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D)) {
      if (const clang::FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
        FD = Pattern;
      if (const clang::FunctionDecl *Def = FD->getDefinition())
        FD = Def;
      D = FD;
      if (const clang::FunctionTemplateDecl *T = FD->getDescribedFunctionTemplate())
        D = T;
    } else if (const auto *FT = llvm::dyn_cast<clang::FunctionTemplateDecl>(D)) {
      if (const clang::FunctionDecl *Def = FT->getTemplatedDecl()->getDefinition())
        if (const clang::FunctionTemplateDecl *T = Def->getDescribedFunctionTemplate())
          D = T;
    } else if (const auto *Spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(D)) {
      if (!Spec->isExplicitSpecialization()) {
        D = Spec->getSpecializedTemplate();
        continue;
      }
    } else if (const auto *CT = llvm::dyn_cast<clang::ClassTemplateDecl>(D)) {
      if (const clang::CXXRecordDecl *Def = CT->getTemplatedDecl()->getDefinition())
        if (const clang::ClassTemplateDecl *T = Def->getDescribedClassTemplate())
          D = T;
    } else if (const auto *RD = llvm::dyn_cast<clang::CXXRecordDecl>(D)) {
      if (const clang::CXXRecordDecl *Pattern = RD->getTemplateInstantiationPattern())
        RD = Pattern;
      if (const clang::CXXRecordDecl *Def = RD->getDefinition())
        RD = Def;
      D = RD;
      if (const clang::ClassTemplateDecl *T = RD->getDescribedClassTemplate())
        D = T;
    } else if (const auto *TD = llvm::dyn_cast<clang::TagDecl>(D)) {
      if (const clang::TagDecl *Def = TD->getDefinition())
        D = Def;
    } else if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(D)) {
      if (!VD->hasGlobalStorage() || VD->isStaticLocal())
        return nullptr;
      if (const clang::VarDecl *Def = VD->getDefinition())
        D = Def;
    }
    // Members and nested types come with their outermost record.
    const clang::DeclContext *DC = D->getDeclContext();
    if (DC->isFunctionOrMethod())
      return nullptr;
    if (DC->isRecord()) {
      D = llvm::cast<clang::Decl>(DC);
      continue;
    }
    return D;
  }
  return nullptr;
}

// How a declaration's text reaches the unit.
enum class Origin { Copied, Included, None };

class UnitBuilder {
public:
  UnitBuilder(const clang::FunctionDecl &K, clang::ASTContext &C, clang::Preprocessor &P,
              const CommandLineMacroTests *T)
      : Kernel(K), Ctx(C), SM(C.getSourceManager()), PP(P), Tests(T) {}

  KernelUnit build();

private:
  Origin originOf(clang::SourceLocation Loc) const;
  bool isUserFile(clang::FileID FID) const;
  // A file the compile's -include brought in (or one it includes): every
  // parse of the unit and the evaluator's compile get the same flag, so its
  // declarations are not copied (they would be defined twice).
  bool isCommandLineInclude(clang::FileID FID) const;
  void use(const clang::Decl *D);
  void includeFor(clang::SourceLocation Loc);
  void addUsedNamespaces(const clang::Decl *D);
  void addUsingDirectives(const clang::DeclContext &DC);
  void collectMacros(clang::SourceLocation Begin, clang::SourceLocation End);
  void useMacro(const clang::IdentifierInfo &Name, const clang::MacroInfo *MI,
                clang::SourceLocation UseLoc);
  std::vector<std::string> environment() const;
  bool reachesKeptInclude(clang::FileID File) const;
  clang::SourceRange textRange(const clang::Decl &D) const;
  std::string textOf(clang::SourceRange R) const;
  std::string lineAt(clang::SourceLocation Loc) const;
  std::string macroText(const clang::MacroInfo &MI) const;

  const clang::FunctionDecl &Kernel;
  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  clang::Preprocessor &PP;
  const CommandLineMacroTests *Tests;
  llvm::SetVector<const clang::Decl *> Copied;
  llvm::SmallPtrSet<const clang::Decl *, 16> Seen;
  llvm::SmallPtrSet<const clang::NamespaceDecl *, 8> UsedNamespaces;
  std::vector<clang::SourceLocation> IncludeLocs; // In a user file, of kept #include lines.
  llvm::SetVector<const clang::MacroInfo *> UsedMacros;
  llvm::DenseMap<const clang::MacroInfo *, const clang::IdentifierInfo *> MacroNames;
};

bool UnitBuilder::isUserFile(clang::FileID FID) const {
  return FID.isValid() && SM.getFileEntryRefForID(FID) &&
         !clang::SrcMgr::isSystem(SM.getFileCharacteristic(SM.getLocForStartOfFile(FID)));
}

bool UnitBuilder::isCommandLineInclude(clang::FileID FID) const {
  while (FID.isValid()) {
    clang::SourceLocation IncludeLoc = SM.getIncludeLoc(FID);
    if (IncludeLoc.isInvalid())
      return false; // The main file.
    clang::FileID Includer = SM.getFileID(IncludeLoc);
    if (!SM.getFileEntryRefForID(Includer))
      return true; // Included from <built-in>, where the compiler puts -include.
    FID = Includer;
  }
  return false;
}

Origin UnitBuilder::originOf(clang::SourceLocation Loc) const {
  if (Loc.isInvalid())
    return Origin::None;
  clang::FileID FID = SM.getFileID(SM.getExpansionLoc(Loc));
  if (isUserFile(FID))
    return isCommandLineInclude(FID) ? Origin::Included : Origin::Copied;
  return SM.getFileEntryRefForID(FID) ? Origin::Included : Origin::None;
}

// Keeps the #include line, in a user file, that brings in the header of Loc.
void UnitBuilder::includeFor(clang::SourceLocation Loc) {
  clang::FileID FID = SM.getFileID(SM.getExpansionLoc(Loc));
  while (FID.isValid()) {
    clang::SourceLocation IncludeLoc = SM.getIncludeLoc(FID);
    if (IncludeLoc.isInvalid())
      return; // Included by the compiler itself (CUDA's runtime wrapper): nothing to keep.
    clang::FileID Includer = SM.getFileID(IncludeLoc);
    if (isUserFile(Includer)) {
      IncludeLocs.push_back(IncludeLoc);
      return;
    }
    FID = Includer;
  }
}

void UnitBuilder::addUsedNamespaces(const clang::Decl *D) {
  for (const clang::DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(DC))
      UsedNamespaces.insert(NS->getFirstDecl());
}

void UnitBuilder::use(const clang::Decl *Ref) {
  if (!Ref || Ref->isImplicit())
    return; // Builtins (__syncthreads) are declared implicitly where first used.
  if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(Ref)) {
    UsedNamespaces.insert(NS->getFirstDecl());
    if (originOf(NS->getLocation()) == Origin::Included)
      includeFor(NS->getLocation());
    return;
  }
  const clang::Decl *D = declToCopy(Ref);
  if (!D || !Seen.insert(D).second)
    return;
  addUsedNamespaces(D);
  switch (originOf(D->getLocation())) {
  case Origin::Copied: {
    Copied.insert(D);
    auto UseNext = [this](const clang::Decl *Next) { use(Next); };
    ReferenceVisitor Visitor(UseNext);
    Visitor.TraverseDecl(const_cast<clang::Decl *>(D));
    break;
  }
  case Origin::Included:
    includeFor(D->getLocation());
    break;
  case Origin::None:
    break;
  }
}

// Using-directives at namespace scope in user files, for namespaces the unit uses.
void UnitBuilder::addUsingDirectives(const clang::DeclContext &DC) {
  for (const clang::Decl *D : DC.decls()) {
    if (originOf(D->getLocation()) != Origin::Copied)
      continue;
    if (const auto *UD = llvm::dyn_cast<clang::UsingDirectiveDecl>(D)) {
      const clang::NamespaceDecl *NS = UD->getNominatedNamespace();
      if (NS && UsedNamespaces.contains(NS->getFirstDecl()) &&
          SM.isBeforeInTranslationUnit(UD->getLocation(), Kernel.getLocation()))
        Copied.insert(UD);
    } else if (const auto *Inner = llvm::dyn_cast<clang::DeclContext>(D)) {
      if (llvm::isa<clang::NamespaceDecl, clang::LinkageSpecDecl>(D))
        addUsingDirectives(*Inner);
    }
  }
}

void UnitBuilder::useMacro(const clang::IdentifierInfo &Name, const clang::MacroInfo *MI,
                           clang::SourceLocation UseLoc) {
  if (!MI || MI->isBuiltinMacro() || !UsedMacros.insert(MI))
    return;
  MacroNames[MI] = &Name;
  for (const clang::Token &T : MI->tokens())
    if (const clang::IdentifierInfo *II = T.getIdentifierInfo())
      if (II->hadMacroDefinition())
        useMacro(*II, PP.getMacroDefinitionAtLoc(II, UseLoc).getMacroInfo(), UseLoc);
}

// The macros named in the text between two locations of one file.
void UnitBuilder::collectMacros(clang::SourceLocation Begin, clang::SourceLocation End) {
  clang::FileID FID = SM.getFileID(Begin);
  llvm::StringRef Buffer = SM.getBufferData(FID);
  unsigned From = SM.getFileOffset(Begin), To = SM.getFileOffset(End);
  clang::Lexer Lex(SM.getLocForStartOfFile(FID), Ctx.getLangOpts(), Buffer.begin(),
                   Buffer.begin() + From, Buffer.end());
  clang::Token T;
  // The raw lexer answers true with the file's last token, which still counts.
  for (bool AtEnd = false; !AtEnd;) {
    AtEnd = Lex.LexFromRawLexer(T);
    if (T.is(clang::tok::eof) || SM.getFileOffset(T.getLocation()) >= To)
      break;
    if (T.isNot(clang::tok::raw_identifier))
      continue;
    clang::IdentifierInfo *II = PP.getIdentifierInfo(T.getRawIdentifier());
    if (II && II->hadMacroDefinition())
      useMacro(*II, PP.getMacroDefinitionAtLoc(II, T.getLocation()).getMacroInfo(),
               T.getLocation());
  }
}

// A function or function template's definition (its text ends at the brace).
bool hasBody(const clang::Decl &D) {
  if (const auto *FT = llvm::dyn_cast<clang::FunctionTemplateDecl>(&D))
    return FT->getTemplatedDecl()->doesThisDeclarationHaveABody();
  if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(&D))
    return FD->doesThisDeclarationHaveABody();
  return false;
}

// The first declaration of a copied function defined later, where the user's
// file has one: a helper may call a helper defined after it, as in the TU.
const clang::Decl *forwardDeclaration(const clang::Decl &D) {
  const clang::Decl *First = D.getCanonicalDecl();
  if (const auto *FT = llvm::dyn_cast<clang::FunctionTemplateDecl>(&D))
    First = FT->getCanonicalDecl();
  return First != &D && hasBody(D) && !hasBody(*First) ? First : nullptr;
}

// From the template header (or the first specifier) through the closing brace
// or the terminating semicolon, as file locations.
clang::SourceRange UnitBuilder::textRange(const clang::Decl &D) const {
  clang::SourceLocation Begin = SM.getExpansionRange(D.getBeginLoc()).getBegin();
  clang::SourceLocation Last = SM.getExpansionRange(D.getEndLoc()).getEnd();
  clang::SourceLocation End = clang::Lexer::getLocForEndOfToken(Last, 0, SM, Ctx.getLangOpts());
  llvm::StringRef Rest = SM.getCharacterData(End);
  size_t Spaces = Rest.find_first_not_of(" \t");
  if (Spaces != llvm::StringRef::npos && Rest[Spaces] == ';' && !hasBody(D))
    End = End.getLocWithOffset(Spaces + 1);
  return {Begin, End};
}

std::string UnitBuilder::textOf(clang::SourceRange R) const {
  const char *B = SM.getCharacterData(R.getBegin());
  const char *E = SM.getCharacterData(R.getEnd());
  return blankKoptPragmas(llvm::StringRef(B, E - B));
}

// The whole line of Loc in its file, without its newline.
std::string UnitBuilder::lineAt(clang::SourceLocation Loc) const {
  clang::FileID FID = SM.getFileID(Loc);
  llvm::StringRef Buffer = SM.getBufferData(FID);
  unsigned Offset = SM.getFileOffset(Loc);
  size_t Start = Buffer.rfind('\n', Offset);
  Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
  size_t End = Buffer.find('\n', Offset);
  return Buffer.slice(Start, End).rtrim("\r").str();
}

// The #define directive of MI, continuation lines included.
std::string UnitBuilder::macroText(const clang::MacroInfo &MI) const {
  clang::SourceLocation Def = MI.getDefinitionLoc();
  clang::FileID FID = SM.getFileID(Def);
  llvm::StringRef Buffer = SM.getBufferData(FID);
  size_t Start = Buffer.rfind('\n', SM.getFileOffset(Def));
  Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
  size_t End = Buffer.find('\n', SM.getFileOffset(MI.getDefinitionEndLoc()));
  return Buffer.slice(Start, End).rtrim("\r").str();
}

// Opening and closing text for the namespaces and linkage specifications around D.
std::vector<std::string> enclosingScopes(const clang::Decl &D) {
  std::vector<std::string> Scopes;
  for (const clang::DeclContext *DC = D.getDeclContext(); DC && !DC->isTranslationUnit();
       DC = DC->getParent()) {
    if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(DC)) {
      std::string Open = NS->isInline() ? "inline namespace" : "namespace";
      if (!NS->isAnonymousNamespace()) {
        Open += ' ';
        Open += NS->getName();
      }
      Open += " {";
      Scopes.push_back(std::move(Open));
    } else if (const auto *LS = llvm::dyn_cast<clang::LinkageSpecDecl>(DC))
      Scopes.push_back(LS->getLanguage() == clang::LinkageSpecLanguageIDs::C ? "extern \"C\" {"
                                                                             : "extern \"C++\" {");
  }
  std::reverse(Scopes.begin(), Scopes.end());
  return Scopes;
}

std::string declName(const clang::Decl &D) {
  if (const auto *ND = llvm::dyn_cast<clang::NamedDecl>(&D)) {
    std::string Name = ND->getQualifiedNameAsString();
    if (!Name.empty())
      return Name;
  }
  if (const auto *UD = llvm::dyn_cast<clang::UsingDirectiveDecl>(&D))
    return "using namespace " + UD->getNominatedNamespace()->getQualifiedNameAsString();
  return D.getDeclKindName();
}

// "NAME=BODY" or "NAME(PARAMS)=BODY", tokens spelled with single spaces where
// the definition has any: the same definition spells the same on any machine.
std::string definitionText(const clang::IdentifierInfo &Name, const clang::MacroInfo &MI,
                           const clang::Preprocessor &PP) {
  std::string Text = Name.getName().str();
  if (MI.isFunctionLike()) {
    Text += '(';
    for (const clang::IdentifierInfo *Param : MI.params()) {
      if (Text.back() != '(')
        Text += ',';
      Text +=
          MI.isC99Varargs() && Param->getName() == "__VA_ARGS__" ? "..." : Param->getName().str();
    }
    if (MI.isGNUVarargs())
      Text += "...";
    Text += ')';
  }
  Text += '=';
  bool First = true;
  for (const clang::Token &T : MI.tokens()) {
    if (!First && T.hasLeadingSpace())
      Text += ' ';
    Text += PP.getSpelling(T);
    First = false;
  }
  return Text;
}

// Whether File is read through one of the #include lines the unit keeps.
bool UnitBuilder::reachesKeptInclude(clang::FileID File) const {
  while (File.isValid()) {
    clang::SourceLocation IncludeLoc = SM.getIncludeLoc(File);
    if (IncludeLoc.isInvalid())
      return false;
    if (llvm::is_contained(IncludeLocs, IncludeLoc))
      return true;
    File = SM.getFileID(IncludeLoc);
  }
  return false;
}

std::vector<std::string> UnitBuilder::environment() const {
  std::set<std::string> Items;
  for (const clang::MacroInfo *MI : UsedMacros) {
    const clang::IdentifierInfo *Name = MacroNames.lookup(MI);
    // The architecture is keyed on its own (and parsed as one clang knows).
    if (Name && originOf(MI->getDefinitionLoc()) != Origin::Copied &&
        !Name->getName().starts_with("__CUDA_ARCH"))
      Items.insert(definitionText(*Name, *MI, PP));
  }
  if (Tests)
    Tests->forEach([&](const clang::IdentifierInfo &Name, llvm::ArrayRef<clang::FileID> Files) {
      if (!llvm::any_of(Files, [&](clang::FileID F) { return reachesKeptInclude(F); }))
        return;
      // Undefined in the end (-D then -U) is as if the command line never named it.
      if (const clang::MacroInfo *MI = PP.getMacroDefinition(&Name).getMacroInfo())
        Items.insert(definitionText(Name, *MI, PP));
    });
  return {Items.begin(), Items.end()};
}

KernelUnit UnitBuilder::build() {
  const clang::Decl *Root = declToCopy(&Kernel);
  use(Root);
  const clang::TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
  addUsingDirectives(*TU);

  std::vector<const clang::Decl *> Decls(Copied.begin(), Copied.end());
  std::set<const clang::Decl *> Prototypes;
  for (const clang::Decl *D : Copied)
    if (const clang::Decl *F = forwardDeclaration(*D))
      if (originOf(F->getLocation()) == Origin::Copied && !Copied.contains(F) &&
          Prototypes.insert(F).second)
        Decls.push_back(F);
  std::sort(Decls.begin(), Decls.end(), [&](const clang::Decl *A, const clang::Decl *B) {
    return SM.isBeforeInTranslationUnit(textRange(*A).getBegin(), textRange(*B).getBegin());
  });
  // The kernel goes last even if a helper it calls is defined after it.
  if (auto It = std::find(Decls.begin(), Decls.end(), Root); It != Decls.end()) {
    Decls.erase(It);
    Decls.push_back(Root);
  }

  KernelUnit Unit;
  std::string Body;
  std::vector<std::string> Open;
  for (const clang::Decl *D : Decls) {
    clang::SourceRange R = textRange(*D);
    collectMacros(R.getBegin(), R.getEnd());
    std::vector<std::string> Scopes = enclosingScopes(*D);
    size_t Common = 0;
    while (Common < Open.size() && Common < Scopes.size() && Open[Common] == Scopes[Common])
      ++Common;
    for (size_t I = Open.size(); I > Common; --I)
      Body += "} // " + Open[I - 1].substr(0, Open[I - 1].size() - 2) + "\n";
    for (size_t I = Common; I < Scopes.size(); ++I)
      Body += Scopes[I] + "\n";
    Open = Scopes;
    Body += textOf(R) + "\n\n";
    if (!Prototypes.count(D))
      Unit.Decls.push_back(declName(*D));
  }
  for (size_t I = Open.size(); I > 0; --I)
    Body += "} // " + Open[I - 1].substr(0, Open[I - 1].size() - 2) + "\n";

  std::vector<const clang::MacroInfo *> Macros;
  for (const clang::MacroInfo *MI : UsedMacros) {
    clang::SourceLocation Def = MI->getDefinitionLoc();
    switch (originOf(Def)) {
    case Origin::Copied:
      Macros.push_back(MI);
      break;
    case Origin::Included:
      includeFor(Def);
      break;
    case Origin::None:
      break;
    }
  }
  std::sort(Macros.begin(), Macros.end(),
            [&](const clang::MacroInfo *A, const clang::MacroInfo *B) {
              return SM.isBeforeInTranslationUnit(A->getDefinitionLoc(), B->getDefinitionLoc());
            });
  std::sort(IncludeLocs.begin(), IncludeLocs.end(),
            [&](clang::SourceLocation A, clang::SourceLocation B) {
              return SM.isBeforeInTranslationUnit(A, B);
            });

  std::string Head;
  for (clang::SourceLocation L : IncludeLocs) {
    std::string Line = lineAt(L);
    if (std::find(Unit.Includes.begin(), Unit.Includes.end(), Line) != Unit.Includes.end())
      continue;
    Unit.Includes.push_back(Line);
    Head += Line + "\n";
  }
  for (const clang::MacroInfo *MI : Macros) {
    Head += macroText(*MI) + "\n";
    Unit.Macros.push_back(
        clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(MI->getDefinitionLoc()),
                                    SM, Ctx.getLangOpts())
            .str());
  }
  Unit.Text = Head + (Head.empty() ? "" : "\n") + Body;
  Unit.Hash = hashUnitText(Unit.Text);
  Unit.Environment = environment();

  clang::SourceRange K = textRange(*Root);
  Unit.Definition.Begin = SM.getFileOffset(K.getBegin());
  Unit.Definition.End = SM.getFileOffset(K.getEnd());
  Unit.Definition.BeginLine = SM.getPresumedLineNumber(K.getBegin());
  Unit.Definition.EndLine = SM.getPresumedLineNumber(K.getEnd().getLocWithOffset(-1));
  return Unit;
}

} // namespace

KernelUnit buildKernelUnit(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx,
                           clang::Preprocessor &PP, const CommandLineMacroTests *Tests) {
  return UnitBuilder(Kernel, Ctx, PP, Tests).build();
}

} // namespace kopt::frontend
