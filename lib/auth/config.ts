// The next-auth entry points (route handlers, auth(), signIn, signOut) over the configuration in ./options.
import NextAuth from "next-auth";
import { getDb } from "@/lib/db/client";
import { authOptions } from "./options";

export const { handlers, auth, signIn, signOut } = NextAuth(async () => authOptions(await getDb()));
