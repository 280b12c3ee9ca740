import Link from "next/link";
import { CREDIT_PACKS, formatMoney, PACK_CURRENCY } from "@/lib/billing/packs";
import { SIGNUP_BONUS } from "@/lib/credits/credits";
import { pricingText, TOOL_NAMES, TOOLS } from "@/lib/tools/catalog";

export default function Home() {
  return (
    <main id="main" className="mx-auto max-w-3xl px-6 py-16">
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-3xl font-semibold tracking-tight">Findable</h1>
        <nav aria-label="Account" className="flex gap-3">
          <Link href="/login" className="btn-secondary">
            Sign in
          </Link>
          <Link href="/signup" className="btn-primary">
            Create an account
          </Link>
        </nav>
      </div>
      <p className="mt-4 text-lg text-slate-700">
        Help search engines and AI answer engines (ChatGPT, Claude, Gemini, Perplexity) find your websites:
        URL audits, llms.txt and FAQ generation, AI bot analytics and AI-engine citations.
      </p>
      <ul className="mt-8 list-disc space-y-2 pl-6 text-slate-700">
        <li>
          A dashboard: sign up for 100 free credits, launch the tools, follow bot visits and citations, manage
          keys and domains.
        </li>
        <li>
          REST API under <code className="font-mono">/api/v1</code> with{" "}
          <code className="font-mono">x-api-key</code> and <code className="font-mono">x-api-secret</code>{" "}
          headers.
        </li>
        <li>
          Hosted MCP endpoint at <code className="font-mono">POST /api/v1/mcp</code> for AI assistants.
        </li>
      </ul>
      <section aria-labelledby="pricing" className="mt-12" data-testid="pricing">
        <h2 id="pricing" className="text-xl font-semibold text-slate-900">
          What it costs
        </h2>
        <p className="mt-2 text-slate-700">
          You pay in credits, only for tool runs: reading your bot visits, citations and reports is free, and
          a run that fails is refunded. A new account gets {SIGNUP_BONUS} free credits once its email address
          is verified. Credits do not expire.
        </p>
        <ul className="mt-4 grid gap-3 sm:grid-cols-3">
          {CREDIT_PACKS.map((p) => (
            <li key={p.id} className="rounded-lg border border-slate-200 bg-white p-4">
              <p className="font-semibold text-slate-900">{p.name}</p>
              <p className="text-slate-700">
                {p.credits.toLocaleString("en-US")} credits for {formatMoney(p.price, PACK_CURRENCY)}
              </p>
            </li>
          ))}
        </ul>
        <h3 className="mt-6 font-semibold text-slate-900">Credits per run</h3>
        <ul className="mt-2 grid gap-x-6 gap-y-1 text-sm text-slate-700 sm:grid-cols-2">
          {TOOL_NAMES.map((name) => (
            <li key={name} className="flex justify-between gap-3 border-b border-slate-100 py-1">
              <span>{TOOLS[name].title}</span>
              <span className="text-right">{pricingText(TOOLS[name])}</span>
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
