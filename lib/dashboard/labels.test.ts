import { describe, expect, test } from "vitest";
import { TOOL_NAMES, TOOLS } from "@/lib/tools/catalog";
import { TOOL_TITLES } from "@/lib/tools/titles";
import { describeTransaction, purposeLabel, shortJobRef, toolTitle } from "./labels";

const JOB = "7f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b";

describe("plain words", () => {
  test("tool titles from the catalogue, unknown names kept", () => {
    expect(toolTitle("audits")).toBe("URL audit");
    expect(toolTitle("gone-tool")).toBe("gone-tool");
  });

  test("the client-safe titles name every tool of the catalogue, as its definitions do", () => {
    expect(Object.keys(TOOL_TITLES).sort()).toEqual([...TOOL_NAMES].sort());
    for (const name of TOOL_NAMES) expect(toolTitle(name)).toBe(TOOLS[name].title);
  });

  test("bot purposes", () => {
    expect(purposeLabel("training")).toBe("AI training");
    expect(purposeLabel("ai_search")).toBe("AI search");
    expect(purposeLabel("ai_user_fetch")).toBe("User-triggered fetch");
    expect(purposeLabel("search_engine")).toBe("Search engine");
  });

  test("ledger rows: the tool's title, the job apart, the failure code kept", () => {
    expect(shortJobRef(JOB)).toBe("7f0c1a2b");
    expect(describeTransaction({ type: "spend", description: `audits job ${JOB}`, jobId: JOB })).toEqual({
      text: "URL audit",
      jobId: JOB,
    });
    expect(
      describeTransaction({
        type: "refund",
        description: `Refund: backlinks-overview job ${JOB} failed (PROVIDER_ERROR)`,
        jobId: JOB,
      }),
    ).toEqual({ text: "Refund: Backlinks overview", jobId: JOB, reason: "PROVIDER_ERROR" });
    expect(
      describeTransaction({
        type: "refund",
        description: `Refund: ai-citation-check job ${JOB}, ChatGPT failed`,
        jobId: JOB,
      }).text,
    ).toBe("Refund: AI citation check (ChatGPT failed)");
    expect(
      describeTransaction({ type: "grant", description: "Sign-up bonus: 100 free credits", jobId: null }),
    ).toEqual({ text: "Sign-up bonus: 100 free credits", jobId: null });
  });
});

describe("elapsed time", () => {
  test("seconds, minutes and hours as a running job shows them", async () => {
    const { formatElapsed } = await import("./format");
    expect(formatElapsed(12_400)).toBe("12 s");
    expect(formatElapsed(-5)).toBe("0 s");
    expect(formatElapsed(185_000)).toBe("3 min 5 s");
    expect(formatElapsed(120_000)).toBe("2 min");
    expect(formatElapsed(3_720_000)).toBe("1 h 2 min");
  });
});
