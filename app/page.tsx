import Link from "next/link";

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
    </main>
  );
}
