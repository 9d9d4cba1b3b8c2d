// Whether the time budget allows one more evaluation. An evaluation of a long
// kernel costs seconds, so the loop checks the time it would end at, not the
// time it starts at: the time spent so far plus the next evaluation's expected
// cost, the mean of the loop's evaluations so far (each with the search's own
// work around it: applying and reviewing steps). A kernel always gets
// MinEvaluations, whatever they cost: a 1 s kernel whose original took the
// whole budget to measure would otherwise get none, and stay as slow as it is
// where the program spends its time.
#pragma once

namespace kopt::agents {

inline constexpr unsigned MinEvaluations = 4;

// LoopSeconds: since the loop began (the original measured, its first steps
// listed), over Evaluations.
double predictedEvaluationSeconds(double LoopSeconds, unsigned Evaluations);

// Elapsed: since the budget began (the original's measurement included).
// Whether the next evaluation ends within BudgetSeconds.
bool nextEvaluationFits(double Elapsed, double LoopSeconds, unsigned Evaluations,
                        double BudgetSeconds);

// Whether the loop may start another evaluation: one that fits, or one of the
// first MinEvaluations.
bool mayEvaluate(double Elapsed, double LoopSeconds, unsigned Evaluations, double BudgetSeconds);

} // namespace kopt::agents
