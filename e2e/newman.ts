// Runs the generated Postman collection with newman against a running server:
//   node --import tsx e2e/newman.ts http://127.0.0.1:3000
// Credentials: NEWMAN_API_KEY, NEWMAN_API_SECRET and NEWMAN_DOMAIN (a domain registered on that account), or
// else the "newman" account that e2e/serve.ts seeded into reports/e2e-accounts.json.
import { readFileSync } from "node:fs";
import { runPostmanCollection } from "./newman-run";

const baseUrl = process.argv[2] ?? process.env.NEWMAN_BASE_URL;
if (!baseUrl) {
  console.error("usage: node --import tsx e2e/newman.ts <baseUrl>");
  process.exit(2);
}

function credentials() {
  const { NEWMAN_API_KEY: key, NEWMAN_API_SECRET: secret, NEWMAN_DOMAIN: domain } = process.env;
  if (key && secret && domain) return { key, secret, domain };
  const seeded = JSON.parse(readFileSync("reports/e2e-accounts.json", "utf8")).newman;
  if (!seeded) throw new Error("Set NEWMAN_API_KEY, NEWMAN_API_SECRET and NEWMAN_DOMAIN.");
  return { key: seeded.key as string, secret: seeded.secret as string, domain: seeded.domain as string };
}

const result = await runPostmanCollection({ baseUrl, ...credentials() });
for (const failure of result.failures) console.error(`FAILED ${failure}`);
console.log(`${result.requests} requests; ${result.passed} passed, ${result.failed} failed`);
process.exit(result.failed === 0 && result.assertions > 0 ? 0 : 1);
