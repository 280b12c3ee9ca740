import type { Metadata } from "next";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Findable — SEO and AI search visibility", template: "%s · Findable" },
  description: "Audits, bot analytics and AI-engine citations for your websites, by API, MCP and dashboard.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request, so Next can put the request's CSP nonce (set by proxy.ts) on its scripts.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-white font-sans text-slate-900 antialiased">{children}</body>
    </html>
  );
}
