import { describe, expect, test } from "vitest";
import { BOT_PURPOSES } from "./bots";
import { classifyUserAgent } from "./classify";
import { AUDITED_BOT_NAMES, BOT_TOKENS } from "./robots-tokens";

describe("robots.txt audit tokens come from the bot catalogue", () => {
  test("one entry per audited name, each token once, purposes in the catalogue's spelling", () => {
    expect(BOT_TOKENS).toHaveLength(AUDITED_BOT_NAMES.length);
    expect(new Set(BOT_TOKENS.map((b) => b.token.toLowerCase())).size).toBe(BOT_TOKENS.length);
    for (const bot of BOT_TOKENS) expect(BOT_PURPOSES).toContain(bot.purpose);
  });

  test("a crawler is described the same way by tracking and by the audit", () => {
    const seen = classifyUserAgent(
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2)",
    );
    const audited = BOT_TOKENS.find((b) => b.token === "GPTBot");
    expect(seen.kind === "bot" && seen.bot.purpose).toBe(audited?.purpose);
    expect(audited).toEqual({ token: "GPTBot", operator: "OpenAI", kind: "ai", purpose: "training" });
    expect(BOT_TOKENS.find((b) => b.token.toLowerCase() === "googlebot")).toMatchObject({
      kind: "search",
      purpose: "search_engine",
    });
  });
});
