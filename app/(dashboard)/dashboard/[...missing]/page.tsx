import type { Metadata } from "next";
import { notFound } from "next/navigation";

export const metadata: Metadata = { title: "Page not found" };

// Any other /dashboard/… address: the dashboard's own 404 page, within its frame (not-found.tsx beside it).
export default function MissingDashboardPage(): never {
  notFound();
}
