// The tools' titles as people read them, apart from their definitions: client components that only name a
// tool (ledger rows, job headings, bot purposes) import this instead of the catalogue, whose input and result
// schemas would put zod into every dashboard page's JavaScript. Each definition takes its title from here.
export const TOOL_TITLES = {
  audits: "URL audit",
  "core-web-vitals": "Core Web Vitals",
  "keyword-research": "Keyword research",
  "brand-visibility": "Brand visibility",
  "faq-generator": "FAQ generator",
  "llms-txt": "llms.txt generator",
  "ai-citation-check": "AI citation check",
  "seo-aeo-geo-audit": "SEO / AEO / GEO audit",
  "backlinks-overview": "Backlinks overview",
  "keyword-metrics": "Keyword search figures",
  "domain-authority": "Domain authority",
  serp: "Live search results",
  "ai-access": "AI access matrix",
} as const;

type TitledToolName = keyof typeof TOOL_TITLES;

/** The title of a tool by name, or undefined for a name this build does not have. */
export function findToolTitle(name: string): string | undefined {
  return Object.hasOwn(TOOL_TITLES, name) ? TOOL_TITLES[name as TitledToolName] : undefined;
}
