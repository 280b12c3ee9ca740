import { describe, expect } from "vitest";
import { getCreditAccount } from "@/lib/credits/credits";
import type { DbHandle } from "@/lib/db/client";
import { runsOnThisThread } from "@/lib/db/rows";
import { ingestLog } from "@/lib/tracking/ingest/ingest-visits";
import { dbTest } from "@/test/support/fixtures";
import { createTestAccount, type TestAccount } from "../accounts";
import { isPostgres } from "../db";

const test = dbTest;
let handle: DbHandle;
let acct: TestAccount;

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  acct = await createTestAccount(handle.db, { domains: ["uploads.example"] });
});

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const BOTS = [
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
];

/** A combined-format log of `lines` bot requests, one every 20 s over the last days. */
function botLog(lines: number): Uint8Array {
  const start = Date.now() - 10 * 86_400_000;
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const t = new Date(start + i * 20_000);
    const iso = t.toISOString();
    const stamp = `${iso.slice(8, 10)}/${MONTHS[t.getUTCMonth()]}/${iso.slice(0, 4)}:${iso.slice(11, 19)} +0000`;
    out.push(
      `66.249.66.${i % 250} - - [${stamp}] "GET /docs/page-${i % 900} HTTP/1.1" 200 ${1000 + i} "-" "${BOTS[i % BOTS.length]}"`,
    );
  }
  return new TextEncoder().encode(`${out.join("\n")}\n`);
}

describe("a large log upload leaves the server turns for other requests", () => {
  test("the test database's kind is recognised", () => {
    expect(runsOnThisThread(handle.db)).toBe(!isPostgres());
  });

  test("reads issued during an upload are answered before the upload ends", async () => {
    const log = botLog(6000);
    let uploading = true;
    const answeredDuring: number[] = [];
    // A read every 5 ms of wall time, as requests would arrive; each counts if it is answered mid-upload.
    const reads: Promise<void>[] = [];
    const timer = setInterval(() => {
      reads.push(
        getCreditAccount(handle.db, acct.accountId).then(() => {
          if (uploading) answeredDuring.push(Date.now());
        }),
      );
    }, 5);
    const result = await ingestLog(handle.db, acct.accountId, "uploads.example", log);
    uploading = false;
    clearInterval(timer);
    await Promise.all(reads);
    expect(result.accepted).toBe(6000);
    // Without a turn of the event loop between batches, the embedded database answers no read until the
    // last line is stored (the timer never fires); with them, reads are answered throughout.
    expect(answeredDuring.length).toBeGreaterThanOrEqual(5);
  });
});
