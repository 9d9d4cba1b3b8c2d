#include "driver/kcc/DependencyFile.h"

#include <gtest/gtest.h>

using kopt::driver::DependencyEdit;
using kopt::driver::editDependencies;
using kopt::driver::unrealLineNames;

TEST(DependencyFile, RenamesTheRewrittenSourceOnly) {
  std::string In = "out/x.o : out/x.o.kopt/x.cu \\\n    out/.x.kopt.1.cuh \\\n"
                   "    /usr/include/a.h\n";
  EXPECT_EQ(editDependencies(In, {{"out/x.o.kopt/x.cu", "src/x.cu", {}, {}}}),
            "out/x.o : src/x.cu \\\n    out/.x.kopt.1.cuh \\\n    /usr/include/a.h\n");
}

TEST(DependencyFile, EscapesSpacesAsNvccDoes) {
  EXPECT_EQ(editDependencies("x.o : b/t\\ 1.cu\n", {{"b/t 1.cu", "my src/x.cu", {}, {}}}),
            "x.o : my\\ src/x.cu\n");
}

// nvcc writes '#' as it is: the temporary file's name must not stay.
TEST(DependencyFile, HashInANameIsMatchedAsNvccWritesIt) {
  EXPECT_EQ(editDependencies("x.o : x.o.kopt/a#b.cu \\\n    d#x/h.h\n",
                             {{"x.o.kopt/a#b.cu", "d#x/a#b.cu", {}, {}}}),
            "x.o : d#x/a#b.cu \\\n    d#x/h.h\n");
}

TEST(DependencyFile, TargetsStayAsWritten) {
  EXPECT_EQ(editDependencies("tgt a : t.cu\n", {{"t.cu", "x.cu", {}, {}}}), "tgt a : x.cu\n");
  EXPECT_EQ(editDependencies("x.o: t.cu", {{"t.cu", "x.cu", {}, {}}}), "x.o: x.cu\n");
}

TEST(DependencyFile, NamesTheInlinedHeadersAfterTheSource) {
  EXPECT_EQ(editDependencies("x.o : t.cu /usr/include/a.h\n",
                             {{"t.cu", "x.cu", {"inc/my k.cuh", "b.cuh"}, {}}}),
            "x.o : x.cu \\\n    inc/my\\ k.cuh \\\n    b.cuh \\\n    /usr/include/a.h\n");
}

// What nvcc lists for the #line directives of the rewritten file: the source
// again (once is enough) and the variants' pseudo-files (no file: gone).
TEST(DependencyFile, PseudoFilesGoAndTheSourceIsListedOnce) {
  std::string In = "main.o : main.o.kopt/main.cu \\\n    /usr/include/a.h \\\n    main.cu \\\n"
                   "    main.cu\\ (kopt\\ variant\\ of\\ matmul)\n";
  EXPECT_EQ(editDependencies(
                In, {{"main.o.kopt/main.cu", "main.cu", {}, {"main.cu (kopt variant of matmul)"}}}),
            "main.o : main.cu \\\n    /usr/include/a.h\n");
}

TEST(DependencyFile, PhonyRulesOfPseudoFilesAndOfTheSourceGo) {
  std::string In = "m.o : m.o.kopt/m.cu \\\n    h.h \\\n    m.cu\\ (kopt\\ variant\\ of\\ k)\n\n"
                   "h.h:\n\nm.cu:\n\nm.cu\\ (kopt\\ variant\\ of\\ k):\n";
  EXPECT_EQ(editDependencies(In, {{"m.o.kopt/m.cu", "m.cu", {}, {"m.cu (kopt variant of k)"}}}),
            "m.o : m.cu \\\n    h.h\n\nh.h:\n");
}

TEST(DependencyFile, UnrealNamesAreTheRewritesOwnThatNameNoFile) {
  std::string Original = "#line 7 \"gen.y\"\nint x;\n";
  std::string Rewritten = "#line 1 \"main.cu\"\n#line 7 \"gen.y\"\n"
                          "#line 1 \"main.cu (kopt variant of k)\"\n# 3 \"/\"\n"
                          "#line 9 \"main.cu (kopt variant of k)\"\n";
  // The source and the original's own names stay, files ("/") too.
  EXPECT_EQ(unrealLineNames("main.cu", Original, Rewritten),
            std::vector<std::string>{"main.cu (kopt variant of k)"});
}
