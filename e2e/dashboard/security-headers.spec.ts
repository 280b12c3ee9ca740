// Pages carry a nonce-based Content-Security-Policy, frame-ancestors 'none', nosniff and the referrer policy,
// and the dashboard still hydrates under that policy (no CSP violation reported by the browser).
import { expect, test } from "@playwright/test";

for (const path of ["/", "/login", "/signup", "/docs/api"]) {
  test(`security headers and a working page under the CSP: ${path}`, async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (msg) => {
      if (/Content[- ]Security[- ]Policy|Refused to (execute|load)/i.test(msg.text()))
        violations.push(msg.text());
    });
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    const headers = response!.headers();
    const csp = headers["content-security-policy"] ?? "";
    const nonce = csp.match(/'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
    expect(nonce, csp).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    // Next put the nonce on its own scripts, and React hydrated (a client-side navigation works).
    const scriptNonces = await page.locator("script[nonce]").count();
    expect(scriptNonces).toBeGreaterThan(0);
    await page.waitForLoadState("networkidle");
    expect(violations).toEqual([]);
  });
}

test("a fresh nonce per page view", async ({ request }) => {
  const a = (await request.get("/login")).headers()["content-security-policy"];
  const b = (await request.get("/login")).headers()["content-security-policy"];
  expect(a).toBeTruthy();
  expect(a).not.toBe(b);
});

test("the sign-in form works under the CSP (client-side validation runs)", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill("nobody@example.com");
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: /sign in/i }).click();
  // The form's own alert (Next's route announcer is an alert too), with the sign-in refusal, not a parse error.
  await expect(page.locator("form").getByRole("alert")).toHaveText("Wrong email or password.");
});
