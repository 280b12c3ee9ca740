import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/card";
import { pricingText, TOOL_NAMES, TOOLS } from "@/lib/tools/catalog";

const TOOL_CATALOG = TOOL_NAMES.map((name) => TOOLS[name]);

export const metadata: Metadata = { title: "Tools" };

export default function ToolsPage() {
  return (
    <>
      <PageHeader
        title="Tools"
        description="Each launch creates a job and charges its credits, exactly as the API does. Failed jobs are refunded."
      />
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {TOOL_CATALOG.map((t) => (
          <li
            key={t.name}
            className="flex flex-col rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
          >
            <h2 className="text-base font-semibold text-slate-900">{t.title}</h2>
            <p className="mt-1 flex-1 text-sm text-slate-700">{t.summary}</p>
            <p className="mt-3 text-sm text-slate-700">
              {pricingText(t)}
              {t.unavailable ? (
                <span className="ml-2 text-amber-900">· not available on this server yet</span>
              ) : null}
            </p>
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
