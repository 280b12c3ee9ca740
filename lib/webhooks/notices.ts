import { and, desc, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { accountNotices } from "@/lib/db/schema";

/** The account's notices not yet dismissed (a disabled webhook endpoint), newest first. */
export async function openNotices(db: DbOrTx, accountId: string) {
  return db
    .select({
      id: accountNotices.id,
      kind: accountNotices.kind,
      message: accountNotices.message,
      createdAt: accountNotices.createdAt,
    })
    .from(accountNotices)
    .where(and(eq(accountNotices.accountId, accountId), isNull(accountNotices.dismissedAt)))
    .orderBy(desc(accountNotices.createdAt))
    .limit(20);
}

export async function dismissNotice(db: DbOrTx, accountId: string, id: string): Promise<void> {
  await db
    .update(accountNotices)
    .set({ dismissedAt: new Date() })
    .where(and(eq(accountNotices.id, id), eq(accountNotices.accountId, accountId)));
}
