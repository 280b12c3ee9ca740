"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/**
 * The dashboard's sections, in order: the one list the navigation reads (add a section here). On a wide
 * screen a column beside the content; on a phone wrapping tabs above it, so every section stays in sight.
 */
export const SECTIONS = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/tools", label: "Tools" },
  { href: "/dashboard/jobs", label: "Jobs" },
  { href: "/dashboard/bots", label: "Bots" },
  { href: "/dashboard/citations", label: "Citations" },
  { href: "/dashboard/pages", label: "Pages" },
  { href: "/dashboard/visibility", label: "AI visibility" },
  { href: "/dashboard/domains", label: "Domains" },
  { href: "/dashboard/connections", label: "Connections" },
  { href: "/dashboard/keys", label: "API keys" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/members", label: "Members" },
  { href: "/dashboard/billing", label: "Billing" },
  { href: "/dashboard/account", label: "Account" },
  { href: "/docs/api", label: "API docs" },
] as const;

export function isCurrentSection(href: string, path: string): boolean {
  return href === "/dashboard" ? path === href : path === href || path.startsWith(`${href}/`);
}

export function NavLinks() {
  const path = usePathname();
  return (
    <ul className="flex flex-wrap gap-1 md:flex-col md:flex-nowrap">
      {SECTIONS.map((l) => {
        const active = isCurrentSection(l.href, path);
        return (
          <li key={l.href}>
            <Link
              href={l.href}
              aria-current={active ? "page" : undefined}
              className={`block whitespace-nowrap rounded-md px-2.5 py-1.5 text-sm font-medium ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-indigo-700 md:px-3 md:py-2 md:ring-0 ${
                active
                  ? "bg-indigo-50 text-indigo-800 ring-indigo-200"
                  : "text-slate-700 ring-slate-200 hover:bg-slate-100 hover:text-slate-900"
              }`}
            >
              {l.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
