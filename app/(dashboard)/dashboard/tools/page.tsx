import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/card";
import { requireActor } from "@/lib/auth/session";
import { findToolBlock } from "@/lib/dashboard/tools";
import { pricingText, TOOL_NAMES, TOOLS } from "@/lib/tools/catalog";
import { readServerEnv } from "@/lib/tools/server-env";

const TOOL_CATALOG = TOOL_NAMES.map((name) => TOOLS[name]);

export const metadata: Metadata = { title: "Tools" };

export default async function ToolsPage() {
  const { db } = await requireActor();
  const env = readServerEnv();
  const blocks = await Promise.all(TOOL_CATALOG.map((t) => findToolBlock(db, t.name, env)));
  return (
    <>
      <PageHeader
        title="Tools"
        description="Each launch creates a job and charges its credits, exactly as the API does. A tool this server cannot run is marked and cannot be launched; a job that fails is refunded."
      />
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {TOOL_CATALOG.map((t, i) => (
          <li
            key={t.name}
            className="flex flex-col rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
          >
            <h2 className="text-base font-semibold text-slate-900">{t.title}</h2>
            <p className="mt-1 flex-1 text-sm text-slate-700">{t.summary}</p>
            <p className="mt-3 text-sm text-slate-700">{pricingText(t)}</p>
            {blocks[i] ? (
              <p className="mt-2 text-sm text-amber-900" data-testid={`tool-blocked-${t.name}`}>
                Not available on this server
                {blocks[i].settings.length > 0 ? `: needs ${blocks[i].settings.join(", ")}` : ""}.
              </p>
            ) : null}
            <Link
              href={`/dashboard/tools/${t.name}`}
              className="btn-secondary mt-3 self-start"
              aria-label={`Open ${t.title}`}
            >
              Open
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
