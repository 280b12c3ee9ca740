/**
 * A monitored answer: one engine answering one of a monitor's prompts once. Not a tool of its own (no endpoint,
 * no job): the monitors' service charges it per answer when a run is created and refunds each failed answer.
 */
export const monitoredAnswer = {
  name: "monitored-answer",
  title: "Monitored answer",
  summary:
    "One AI engine answering one of a monitor's tracked prompts once (one sample), analysed for mentions, citations and tone.",
  cost: 5,
} as const;
