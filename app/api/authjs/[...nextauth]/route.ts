// GET/POST /api/authjs/*: next-auth's own routes (sign-in, callbacks, CSRF token, session, sign-out).
import { handlers } from "@/auth";

export const { GET, POST } = handlers;
