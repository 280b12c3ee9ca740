import { analyzeContent, type ContentReport } from "./content";
import { analyzeHeadings, type HeadingsReport } from "./headings";
import { analyzeMeta, type MetaReport } from "./meta";
import { analyzeSecurityHeaders, type SecurityReport } from "./security-headers";
import { analyzeStructuredData, type StructuredDataReport } from "./structured-data/analyze";
import type { Check, ParsedPage } from "./types";

export interface PageAnalysis {
  security: SecurityReport;
  meta: MetaReport;
  headings: HeadingsReport;
  structuredData: StructuredDataReport;
  content: ContentReport;
  /** Every check above, flattened, in a stable order. */
  checks: Check[];
}

/** All single-page checks over one parsed page: no network, so the same input always gives the same result. */
export function analyzePage(page: ParsedPage): PageAnalysis {
  const security = analyzeSecurityHeaders(page);
  const meta = analyzeMeta(page);
  const headings = analyzeHeadings(page);
  const structuredData = analyzeStructuredData(page);
  const content = analyzeContent(page);
  const checks = [
    ...security.tests.map(({ scoreModifier: _, ...check }) => check),
    ...meta.checks,
    ...headings.checks,
    ...structuredData.checks,
    ...content.checks,
  ];
  return { security, meta, headings, structuredData, content, checks };
}
