import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/card";
import { requireActor } from "@/lib/auth/session";
import { listToolCapabilities } from "@/lib/capabilities";
import { pricingText, TOOLS, type ToolName } from "@/lib/tools/catalog";
import { readServerEnv } from "@/lib/tools/server-env";

export const metadata: Metadata = { title: "Tools" };

export default async function ToolsPage() {
  const { db } = await requireActor();
  const capabilities = await listToolCapabilities(db, readServerEnv());
  const ready = capabilities.filter((c) => c.available);
  const unoffered = capabilities.filter((c) => !c.available);
  return (
    <>
      <PageHeader
        title="Tools"
        description="Each launch creates a job and charges its credits, exactly as the API does; a job that fails is refunded."
      />
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="tools-ready">
        {ready.map((c) => {
          const t = TOOLS[c.name as ToolName];
          const limited = c.options?.filter((o) => !o.available).length ?? 0;
          return (
            <li
              key={t.name}
              className="flex flex-col rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
            >
              <h2 className="text-base font-semibold text-slate-900">{t.title}</h2>
              <p className="mt-1 flex-1 text-sm text-slate-700">{t.summary}</p>
              <p className="mt-3 text-sm text-slate-700">{pricingText(t)}</p>
              {limited > 0 ? (
                <p className="mt-1 text-sm text-slate-600" data-testid={`tool-limited-${t.name}`}>
                  Some choices are not offered on this service yet.
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
          );
        })}
      </ul>
      {unoffered.length > 0 ? (
        <section className="mt-10" aria-labelledby="unoffered-heading" data-testid="tools-unoffered">
          <h2 id="unoffered-heading" className="text-lg font-semibold text-slate-900">
            Not offered on this service yet
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            These tools exist in the API but cannot run here yet; nothing can be launched or charged.
          </p>
          <ul className="mt-3 grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {unoffered.map((c) => {
              const t = TOOLS[c.name as ToolName];
              return (
                <li
                  key={t.name}
                  className="rounded-lg border border-dashed border-slate-300 bg-slate-50 p-4"
                  data-testid={`tool-blocked-${t.name}`}
                >
                  <h3 className="text-sm font-semibold text-slate-800">{t.title}</h3>
                  <p className="mt-1 text-sm text-slate-700">{t.summary}</p>
                  <p className="mt-2 text-sm text-slate-700">{c.message}</p>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
    </>
  );
}
