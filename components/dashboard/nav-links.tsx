"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";

/** The dashboard's sections, in order: the one list the navigation reads (add a section here). */
const SECTIONS = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/tools", label: "Tools" },
  { href: "/dashboard/jobs", label: "Jobs" },
  { href: "/dashboard/bots", label: "Bots" },
  { href: "/dashboard/citations", label: "Citations" },
  { href: "/dashboard/pages", label: "Pages" },
  { href: "/dashboard/visibility", label: "AI visibility" },
  { href: "/dashboard/monitors", label: "Monitors" },
  { href: "/dashboard/domains", label: "Domains" },
  { href: "/dashboard/connections", label: "Connections" },
  { href: "/dashboard/keys", label: "API keys" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/members", label: "Members" },
  { href: "/dashboard/billing", label: "Billing" },
  { href: "/dashboard/account", label: "Account" },
  { href: "/docs/api", label: "API docs" },
] as const;

/** Shown to the service's operators only (the flag the admin CLI sets). */
const OPERATOR_SECTION = { href: "/dashboard/operator", label: "Operator" } as const;

function isCurrentSection(href: string, path: string): boolean {
  return href === "/dashboard" ? path === href : path === href || path.startsWith(`${href}/`);
}

function currentLabel(path: string, operator: boolean): string {
  const all = operator ? [...SECTIONS, OPERATOR_SECTION] : SECTIONS;
  return all.find((s) => isCurrentSection(s.href, path))?.label ?? "Menu";
}

/**
 * The header and the navigation. On a wide screen the sections are a column beside the content; on a phone the
 * header is two short lines (brand and the menu button; the account and Sign out) and the sections open below
 * it, so the frame stays under 120 px. `account` holds the account controls, rendered on the server.
 */
export function DashboardChrome({
  account,
  operator,
  children,
}: {
  account: React.ReactNode;
  operator: boolean;
  children: React.ReactNode;
}) {
  const path = usePathname();
  const [open, setOpen] = useState(false);
  // A followed link closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the path changes
  useEffect(() => setOpen(false), [path]);
  const sections = operator ? [...SECTIONS, OPERATOR_SECTION] : SECTIONS;
  return (
    <>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-3 gap-y-2 px-4 py-2 sm:px-6 md:py-3">
          <Link href="/dashboard" className="text-lg font-semibold text-slate-900">
            Findable
          </Link>
          <div className="order-last flex w-full min-w-0 items-center justify-between gap-3 text-sm text-slate-700 md:order-none md:w-auto md:justify-end">
            {account}
          </div>
          <button
            type="button"
            className="btn-secondary md:hidden"
            aria-expanded={open}
            aria-controls="dashboard-nav"
            onClick={() => setOpen((o) => !o)}
            data-testid="menu-button"
          >
            <span aria-hidden="true" className="mr-1.5">
              {open ? "✕" : "☰"}
            </span>
            {open ? "Close" : currentLabel(path, operator)}
            <span className="sr-only"> – menu</span>
          </button>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-4 sm:px-6 md:flex-row md:py-6">
        <nav
          id="dashboard-nav"
          aria-label="Dashboard"
          className={`${open ? "block" : "hidden"} md:block md:w-44 md:shrink-0`}
        >
          <ul className="grid grid-cols-2 gap-1 md:flex md:flex-col">
            {sections.map((l) => {
              const active = isCurrentSection(l.href, path);
              return (
                <li key={l.href}>
                  <Link
                    href={l.href}
                    aria-current={active ? "page" : undefined}
                    className={`block whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-700 ${
                      active
                        ? "bg-indigo-50 text-indigo-800"
                        : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                    }`}
                  >
                    {l.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        {children}
      </div>
    </>
  );
}
