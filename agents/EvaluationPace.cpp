#include "agents/EvaluationPace.h"

namespace kopt::agents {

double predictedEvaluationSeconds(double LoopSeconds, unsigned Evaluations) {
  return Evaluations == 0 ? 0 : LoopSeconds / static_cast<double>(Evaluations);
}

bool nextEvaluationFits(double Elapsed, double LoopSeconds, unsigned Evaluations,
                        double BudgetSeconds) {
  return Elapsed < BudgetSeconds &&
         Elapsed + predictedEvaluationSeconds(LoopSeconds, Evaluations) <= BudgetSeconds;
}

bool mayEvaluate(double Elapsed, double LoopSeconds, unsigned Evaluations, double BudgetSeconds) {
  return Evaluations < MinEvaluations ||
         nextEvaluationFits(Elapsed, LoopSeconds, Evaluations, BudgetSeconds);
}

} // namespace kopt::agents
