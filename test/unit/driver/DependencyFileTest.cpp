#include "driver/kcc/DependencyFile.h"

#include <gtest/gtest.h>

using kopt::driver::retargetDependencies;

TEST(DependencyFile, RenamesTheRewrittenSourceOnly) {
  std::string In =
      "out/x.o : out/.x.kopt.1.cu \\\n    out/.x.kopt.1.cuh \\\n    /usr/include/a.h\n";
  EXPECT_EQ(retargetDependencies(In, "out/.x.kopt.1.cu", "src/x.cu"),
            "out/x.o : src/x.cu \\\n    out/.x.kopt.1.cuh \\\n    /usr/include/a.h\n");
}

TEST(DependencyFile, EscapesSpacesAsMakeDoes) {
  EXPECT_EQ(retargetDependencies("x.o : b/t\\ 1.cu\n", "b/t 1.cu", "my src/x.cu"),
            "x.o : my\\ src/x.cu\n");
}

TEST(DependencyFile, PathAtEndOfTextIsReplaced) {
  EXPECT_EQ(retargetDependencies("x.o: t.cu", "t.cu", "x.cu"), "x.o: x.cu");
}

TEST(DependencyFile, NamesTheInlinedHeadersAfterTheSource) {
  EXPECT_EQ(retargetDependencies("x.o : t.cu /usr/include/a.h\n", "t.cu", "x.cu",
                                 {"inc/my k.cuh", "b.cuh"}),
            "x.o : x.cu inc/my\\ k.cuh b.cuh /usr/include/a.h\n");
}
