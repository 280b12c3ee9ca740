"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/tools", label: "Tools" },
  { href: "/dashboard/jobs", label: "Jobs" },
  { href: "/dashboard/bots", label: "Bots" },
  { href: "/dashboard/citations", label: "Citations" },
  { href: "/dashboard/visibility", label: "AI visibility" },
  { href: "/dashboard/domains", label: "Domains" },
  { href: "/dashboard/connections", label: "Connections" },
  { href: "/dashboard/keys", label: "API keys" },
  { href: "/dashboard/members", label: "Members" },
  { href: "/dashboard/account", label: "Account" },
];

export function NavLinks() {
  const path = usePathname();
  return (
    <ul className="flex gap-1 overflow-x-auto md:flex-col md:overflow-visible">
      {LINKS.map((l) => {
        const active = l.href === "/dashboard" ? path === l.href : path.startsWith(l.href);
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
  );
}
