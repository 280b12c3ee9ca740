#!/usr/bin/env bash
# npm test: installs what the tests need, runs the checks (tsc, biome, knip), then vitest (PGlite, or Postgres when DATABASE_URL is set),
# builds the production bundle and runs Playwright against it, then prints "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm install --no-audit --no-fund || exit 1
fi
chrome="${CHROME_PATH:-/usr/bin/chromium}"
if [ ! -x "$chrome" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    (apt-get update -qq && apt-get install -y -qq chromium) >/dev/null || { echo "could not install chromium"; exit 1; }
  else
    echo "Playwright needs Debian's chromium: sudo apt-get install chromium (or set CHROME_PATH)"; exit 1
  fi
fi
export CHROME_PATH="$chrome"

mkdir -p reports
rm -f reports/vitest.json reports/playwright.json reports/playwright-partial.json reports/summary.json

checks_failed=0
echo "== typecheck, lint and unused code =="
npx tsc --noEmit || checks_failed=$((checks_failed + 1))
npx biome check . || checks_failed=$((checks_failed + 1))
npm run --silent knip || checks_failed=$((checks_failed + 1))

echo "== vitest ($([ -n "${DATABASE_URL:-}" ] && echo Postgres || echo PGlite)) =="
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json
vitest_rc=$?

echo "== next build =="
if npx next build > reports/build.log 2>&1; then
  echo "== playwright (production build) =="
  npx playwright test
  playwright_rc=$?
  # The dashboard's second pass, against a server set up only in part (no DataForSEO, no card payments, one AI
  # engine), as a new customer of such a service finds it.
  echo "== playwright (a server set up in part) =="
  E2E_PORT=$(( ${E2E_PORT:-3210} + 1 )) E2E_PARTIAL=1 E2E_REPORT=reports/playwright-partial.json \
    DATAFORSEO_LOGIN= DATAFORSEO_PASSWORD= STRIPE_SECRET_KEY= STRIPE_WEBHOOK_SECRET= \
    ANTHROPIC_API_KEY= GEMINI_API_KEY= PERPLEXITY_API_KEY= OPERATOR_CONTACT_EMAIL=credits@e2e.example.com \
    npx playwright test e2e/dashboard/second-pass.spec.ts
  partial_rc=$?
else
  cat reports/build.log
  playwright_rc=1
  partial_rc=1
fi

node scripts/test-summary.mjs "$vitest_rc" "$playwright_rc" "$checks_failed" "$partial_rc"
