#include "support/InstallLayout.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <dlfcn.h>

#include <utility>

namespace kopt {

namespace {
std::string join(llvm::StringRef Base, std::initializer_list<llvm::StringRef> Parts) {
  llvm::SmallString<256> Path(Base);
  for (llvm::StringRef Part : Parts)
    llvm::sys::path::append(Path, Part);
  return std::string(Path);
}
} // namespace

std::string runningBinaryPath() {
  // getMainExecutable reads /proc/self/exe on Linux; the address is only a fallback.
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, &Anchor);
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Exe, Real))
    return std::string(Real);
  return Exe;
}

InstallLayout InstallLayout::forRunningBinary() {
  std::string Binary = runningBinaryPath();
  llvm::StringRef BinDir = llvm::sys::path::parent_path(Binary);
  return InstallLayout(std::string(llvm::sys::path::parent_path(BinDir)));
}

InstallLayout InstallLayout::forThisCode() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&InstallLayout::forThisCode), &Info) || !Info.dli_fname ||
      !llvm::StringRef(Info.dli_fname).ends_with(".so"))
    return forRunningBinary();
  // <prefix>/lib/kopt/kopt-clang-plugin.so
  llvm::SmallString<256> Object;
  if (llvm::sys::fs::real_path(Info.dli_fname, Object))
    Object = Info.dli_fname;
  llvm::StringRef Dir = llvm::sys::path::parent_path(Object);
  return InstallLayout(
      std::string(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Dir))));
}

InstallLayout::InstallLayout(std::string PrefixDir) : Prefix(std::move(PrefixDir)) {}

std::string InstallLayout::binDir() const { return join(Prefix, {"bin"}); }
std::string InstallLayout::clangResourceDir() const {
  return join(Prefix, {"lib", "kopt", "clang"});
}
std::string InstallLayout::shimIncludeDir() const {
  return join(Prefix, {"lib", "kopt", "include-shims"});
}
std::string InstallLayout::fallbackIncludeDir() const {
  return join(Prefix, {"lib", "kopt", "include-fallback"});
}
std::string InstallLayout::skillsDir() const { return join(Prefix, {"share", "kopt", "skills"}); }

} // namespace kopt
