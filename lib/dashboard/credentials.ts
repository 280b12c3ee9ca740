import bcrypt from "bcryptjs";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { withBcryptSlot } from "@/lib/dashboard/bcrypt-gate";
import type { DbOrTx } from "@/lib/db/client";
import { users } from "@/lib/db/schema";

// Email/password rules, hashing and lookup, shared by sign-up, sign-in and the email-token flows.

export const BCRYPT_COST = 12;

export const credentialsSchema = z.object({
  email: z
    .string()
    .trim()
    .max(254, { error: "Email address is too long." })
    .pipe(z.email({ error: "Enter a valid email address." })),
  password: z
    .string()
    .min(10, { error: "Use at least 10 characters." })
    .max(200, { error: "Use at most 200 characters." }),
});

export const signUpSchema = credentialsSchema.extend({
  name: z.string().trim().max(100, { error: "Use at most 100 characters." }).optional(),
});

export async function hashPassword(password: string): Promise<string> {
  return withBcryptSlot(() => bcrypt.hash(password, BCRYPT_COST));
}

export async function findUserByEmail(db: DbOrTx, email: string) {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email.trim()})`);
  return row ?? null;
}
