// Turns an annotated kernel's pragma clauses into what the evaluator runs: the
// workload (arguments in parameter order, launch, tolerance) and the kernel's
// source with the compile options of the user's build.
#pragma once

#include "clang-plugin/model/KernelSummary.h"
#include "evaluator/compile/KernelCompiler.h"
#include "evaluator/workload/Workload.h"

#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace kopt::driver {

// Fails, naming File:line:col of the pragma, where a clause the evaluator
// needs is missing: no launch(...), a scalar without a value in args(...), a
// pointer without an entry in buffers(...), a type kopt cannot generate.
// Notes: where given, what the workload changed from what the pragma asks
// (offsets rows shortened to fit their row buffers), one sentence each.
llvm::Expected<evaluator::Workload> workloadFor(const frontend::KernelSummary &Kernel,
                                                llvm::StringRef File,
                                                std::vector<std::string> *Notes = nullptr);

// An offsets buffer's layout (Workload.h's OffsetsLayout) for Rows rows whose
// lengths the pragma gives as Lengths (range(LO, HI) on the buffer; [0, 16)
// without one): mean (LO + HI - 1) / 2, jitter min(mean, (HI - 1 - LO) / 2).
// Its last element, Rows * Mean + Jitter at most, must not exceed Cap (the
// smallest row buffer's element count, the type's largest value): where it
// would, Mean and Jitter are lowered so it does and Capped is set.
struct OffsetsChoice {
  evaluator::OffsetsLayout Layout;
  bool Capped = false;
};
OffsetsChoice offsetsLayout(const evaluator::ValueRange &Lengths, uint64_t Rows, uint64_t Cap);

// The pragma's tol(...) clause over Args' defaults; none without the clause.
// buffers(y[n] out tol(rtol = F, atol = F)) on each written buffer of Args
// that names one; a value it leaves out comes from Workload (the tol clause)
// or the element type's default.
void setBufferTolerances(const frontend::PragmaClauses &P, std::vector<evaluator::KernelArg> &Args,
                         const std::optional<evaluator::Tolerance> &Workload);

// buffers(a[n] in range(LO, HI)) on each buffer of Args that names one: the
// inputs of the random seeds come from [LO, HI) (integer buffers: the integers
// in it). Fails where a range does not evaluate, holds no value, or is given
// for a half or bfloat16 buffer.
llvm::Error setBufferRanges(const frontend::PragmaClauses &P,
                            std::vector<evaluator::KernelArg> &Args);

std::optional<evaluator::Tolerance> pragmaTolerance(const frontend::PragmaClauses &P,
                                                    const std::vector<evaluator::KernelArg> &Args);

// The options NVRTC (or nvcc -cubin) needs to compile the kernel's unit as the
// user's build compiles it: -I/-D/-U/-std/-include and the code-generation
// flags (fast math, ftz, prec-div, prec-sqrt, fmad, maxrregcount), plus the
// source's directory for its quoted includes.
std::vector<std::string> unitCompileOptions(const std::vector<std::string> &NvccFlags,
                                            llvm::StringRef File);

// The kernel's unit (or UnitText in its place, for a variant) as the
// evaluator compiles it; a template kernel is instantiated as the one
// chosenInstantiation picks (clang-plugin/units/InstantiationChoice.h).
evaluator::KernelSource kernelSourceFor(const frontend::KernelSummary &Kernel,
                                        const std::string &UnitText,
                                        const std::vector<std::string> &Options);

} // namespace kopt::driver
