import { ok } from "@/lib/api/envelope";
import { implement } from "@/lib/api/implement";
import { legacyMethods } from "@/lib/api/legacy";
import { getPerformanceReport, reportToCsv } from "@/lib/reports/performance";
import { legacyGetReportRoute } from "@/lib/routes/legacy";

// GET /api/analytics/reports?domain=&period=week|month&format=json|csv (older interface): a performance report
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = legacyMethods({
  GET: implement(legacyGetReportRoute, async ({ db, auth, query }) => {
    const { format, ...q } = query;
    const report = await getPerformanceReport(db, auth.accountId, q);
    if (format === "json") return ok(report);
    return new Response(reportToCsv(report), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="report-${report.domain}-${report.period}-${report.current.to}.csv"`,
      },
    });
  }),
});
