import { verifyEmailToken } from "@/lib/dashboard/email-tokens";
import { FormError } from "@/lib/dashboard/errors";
import { getDb } from "@/lib/db/client";
import { publicUrl } from "@/lib/email/links";

// GET /verify-email?token=…: the link in the verification email; marks the address verified, grants the bonus.
export async function GET(req: Request): Promise<Response> {
  const token = new URL(req.url).searchParams.get("token") ?? "";
  try {
    await verifyEmailToken(await getDb(), token.slice(0, 200));
  } catch (err) {
    if (err instanceof FormError) return Response.redirect(publicUrl("/login?error=link-expired"), 303);
    throw err;
  }
  return Response.redirect(publicUrl("/dashboard/billing?verified=1"), 303);
}
