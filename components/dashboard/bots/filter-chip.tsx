import Link from "next/link";

/** The filter in force ("Bot: GPTBot"), with a link that removes it. */
export function FilterChip({ kind, value, clearHref }: { kind: string; value: string; clearHref: string }) {
  return (
    <div className="mb-4 flex flex-wrap items-center gap-2 text-sm">
      <span className="text-slate-600">Filtered to</span>
      <span className="inline-flex max-w-full items-center gap-1 rounded-full bg-indigo-50 py-1 pr-1 pl-3 text-indigo-900 ring-1 ring-inset ring-indigo-600/30">
        <span className="break-all">
          {kind}: <strong className="font-semibold">{value}</strong>
        </span>
        <Link
          href={clearHref}
          prefetch={false}
          className="inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-700"
          aria-label={`Remove the ${kind.toLowerCase()} filter`}
        >
          <span aria-hidden="true">×</span>
        </Link>
      </span>
    </div>
  );
}
