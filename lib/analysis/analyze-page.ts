import { analyzeContent, type ContentReport } from "./content";
import { analyzeHeadings, type HeadingsReport } from "./headings";
import { analyzeMeta, type MetaReport } from "./meta";
import { analyzeSecurityHeaders, type SecurityContext, type SecurityReport } from "./security-headers";
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

/**
 * All single-page checks over one parsed page: no network, so the same input always gives the same result.
 * `how` tells the security grading how the page was reached (for the Observatory's redirection test).
 */
export function analyzePage(page: ParsedPage, how: SecurityContext = {}): PageAnalysis {
  const security = analyzeSecurityHeaders(page, how);
  const meta = analyzeMeta(page);
  const headings = analyzeHeadings(page);
  const structuredData = analyzeStructuredData(page);
  const content = analyzeContent(page);
  const checks = [
    ...security.tests.map(({ scoreModifier: _, result: __, ...check }) => check),
    ...meta.checks,
    ...headings.checks,
    ...structuredData.checks,
    ...content.checks,
  ];
  return { security, meta, headings, structuredData, content, checks };
}
