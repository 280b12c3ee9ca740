import { clip, headerValues } from "./check";
import { createSecurityTest, type SecurityTest } from "./security-test";
import type { ParsedPage } from "./types";

interface ParsedCookie {
  name: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite: string | undefined;
}

// Names that usually carry a session or credential, per the Observatory's session-cookie heuristic.
const SESSION_NAME = /sess|sid|auth|token|login|jwt|remember|user_?id/i;

export function parseSetCookie(value: string): ParsedCookie {
  const [pair = "", ...attrs] = value.split(";");
  const name = pair.split("=")[0]?.trim() ?? "";
  let secure = false;
  let httpOnly = false;
  let sameSite: string | undefined;
  for (const attr of attrs) {
    const [k = "", v = ""] = attr.split("=").map((s) => s.trim());
    const key = k.toLowerCase();
    if (key === "secure") secure = true;
    else if (key === "httponly") httpOnly = true;
    else if (key === "samesite") sameSite = v.toLowerCase();
  }
  return { name, secure, httpOnly, sameSite };
}

export function checkCookies(page: ParsedPage, hstsProtected: boolean): SecurityTest {
  const values = headerValues(page.headers, "set-cookie");
  const cookies = values.map(parseSetCookie).filter((c) => c.name);
  const evidence = values.map((v) => `set-cookie: ${clip(v, 160)}`);
  if (cookies.length === 0)
    return createSecurityTest("cookies", "pass", 0, "The page sets no cookies.", ["set-cookie: (absent)"]);
  const sessions = cookies.filter((c) => SESSION_NAME.test(c.name));
  const names = (list: ParsedCookie[]) => list.map((c) => c.name).join(", ");
  const insecureSessions = sessions.filter((c) => !c.secure);
  if (insecureSessions.length) {
    return hstsProtected
      ? createSecurityTest(
          "cookies",
          "warn",
          -10,
          `Session cookie(s) ${names(insecureSessions)} lack Secure (HSTS limits the exposure). Add Secure.`,
          evidence,
        )
      : createSecurityTest(
          "cookies",
          "fail",
          -40,
          `Session cookie(s) ${names(insecureSessions)} lack Secure and can leak over plain HTTP. Add Secure (and HSTS).`,
          evidence,
        );
  }
  const readableSessions = sessions.filter((c) => !c.httpOnly);
  if (readableSessions.length) {
    return createSecurityTest(
      "cookies",
      "fail",
      -30,
      `Session cookie(s) ${names(readableSessions)} lack HttpOnly, so injected scripts can steal them. Add HttpOnly.`,
      evidence,
    );
  }
  const insecure = cookies.filter((c) => !c.secure);
  if (insecure.length) {
    return hstsProtected
      ? createSecurityTest(
          "cookies",
          "warn",
          -5,
          `Cookie(s) ${names(insecure)} lack Secure (HSTS limits the exposure). Add Secure.`,
          evidence,
        )
      : createSecurityTest(
          "cookies",
          "fail",
          -20,
          `Cookie(s) ${names(insecure)} lack Secure and can be sent over plain HTTP. Add Secure.`,
          evidence,
        );
  }
  const badSameSite = cookies.filter(
    (c) =>
      c.sameSite !== undefined &&
      (!["strict", "lax", "none"].includes(c.sameSite) || (c.sameSite === "none" && !c.secure)),
  );
  if (badSameSite.length) {
    return createSecurityTest(
      "cookies",
      "fail",
      -20,
      `Cookie(s) ${names(badSameSite)} have an invalid SameSite value. Use Strict, Lax, or None together with Secure.`,
      evidence,
    );
  }
  const noSameSite = cookies.filter((c) => c.sameSite === undefined);
  if (noSameSite.length) {
    return createSecurityTest(
      "cookies",
      "warn",
      0,
      `Cookie(s) ${names(noSameSite)} have no SameSite attribute. Set SameSite=Lax (or Strict) to protect against cross-site request forgery.`,
      evidence,
    );
  }
  return createSecurityTest(
    "cookies",
    "pass",
    5,
    "All cookies are Secure and have SameSite; session cookies are HttpOnly.",
    evidence,
  );
}
