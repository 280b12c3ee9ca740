export function Card({
  title,
  children,
  className = "",
  action,
}: {
  title?: string;
  children: React.ReactNode;
  className?: string;
  action?: React.ReactNode;
}) {
  return (
    <section
      className={`min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5 ${className}`}
    >
      {title ? (
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 className="text-base font-semibold text-slate-900">{title}</h2>
          {action}
        </div>
      ) : null}
      {children}
    </section>
  );
}

export function PageHeader({
  title,
  description,
  children,
}: {
  title: string;
  description?: React.ReactNode;
  children?: React.ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      </div>
      {children}
    </div>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const styles: Record<string, string> = {
    completed: "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
    failed: "bg-red-50 text-red-800 ring-red-600/30",
    processing: "bg-sky-50 text-sky-800 ring-sky-600/30",
    pending: "bg-amber-50 text-amber-900 ring-amber-600/30",
    pass: "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
    warn: "bg-amber-50 text-amber-900 ring-amber-600/30",
    fail: "bg-red-50 text-red-800 ring-red-600/30",
  };
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${styles[status] ?? "bg-slate-50 text-slate-700 ring-slate-500/30"}`}
    >
      {status}
    </span>
  );
}
