// Whether the time budget allows one more evaluation. An evaluation of a long
// kernel costs seconds, so the loop checks the time it would end at, not the
// time it starts at: the time spent so far plus the next evaluation's expected
// cost, the mean of the loop's evaluations so far (each with the search's own
// work around it: applying and reviewing steps). The first one is always tried.
#pragma once

namespace kopt::agents {

// LoopSeconds: since the loop began (the original measured, its first steps
// listed), over Evaluations.
double predictedEvaluationSeconds(double LoopSeconds, unsigned Evaluations);

// Elapsed: since the budget began (the original's measurement included).
bool nextEvaluationFits(double Elapsed, double LoopSeconds, unsigned Evaluations,
                        double BudgetSeconds);

} // namespace kopt::agents
