import { monitoredAnswer } from "@/lib/tools/monitored-answer/definition";
import type { CostEstimate } from "./schemas";

/** Credits per monitored answer: the catalogue's price. */
export const CREDITS_PER_ANSWER = monitoredAnswer.cost;

/** What a run and a month of runs cost: prompts × engines × samples answers at the catalogue's price. */
export function estimateCost(m: {
  prompts: readonly unknown[];
  engines: readonly unknown[];
  samples: number;
  every: "day" | "week";
}): CostEstimate {
  const answersPerRun = m.prompts.length * m.engines.length * m.samples;
  const creditsPerRun = answersPerRun * CREDITS_PER_ANSWER;
  const runsPerMonth = m.every === "day" ? 30 : 52 / 12;
  return {
    answersPerRun,
    creditsPerRun,
    creditsPerMonth: Math.ceil(creditsPerRun * runsPerMonth),
    creditsPerAnswer: CREDITS_PER_ANSWER,
  };
}
