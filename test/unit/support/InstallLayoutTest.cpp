#include "support/InstallLayout.h"

#include <gtest/gtest.h>
#include <llvm/Support/Path.h>

using kopt::InstallLayout;

TEST(InstallLayout, DirectoriesSitUnderThePrefix) {
  InstallLayout Layout("/opt/kopt");
  EXPECT_EQ(Layout.binDir(), "/opt/kopt/bin");
  EXPECT_EQ(Layout.clangResourceDir(), "/opt/kopt/lib/kopt/clang");
  EXPECT_EQ(Layout.shimIncludeDir(), "/opt/kopt/lib/kopt/include-shims");
  EXPECT_EQ(Layout.fallbackIncludeDir(), "/opt/kopt/lib/kopt/include-fallback");
  EXPECT_EQ(Layout.skillsDir(), "/opt/kopt/share/kopt/skills");
}

TEST(InstallLayout, RunningBinaryPrefixIsTheParentOfItsDirectory) {
  std::string Binary = kopt::runningBinaryPath();
  ASSERT_TRUE(llvm::sys::path::is_absolute(Binary)) << Binary;
  InstallLayout Layout = InstallLayout::forRunningBinary();
  EXPECT_EQ(Layout.prefix(),
            llvm::sys::path::parent_path(llvm::sys::path::parent_path(Binary)).str());
}
