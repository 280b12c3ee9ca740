import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { monitorReport, reportCsv } from "@/lib/monitors";
import { getMonitorReportRoute } from "@/lib/routes/monitors";

// GET /api/v1/monitors/{id}/report?from=&to=&compare=previous&format=json|csv: rates with n and 95% intervals
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(getMonitorReportRoute, async ({ db, auth, params, query }) => {
    const report = await monitorReport(db, auth.accountId, params.id, query);
    if (query.format === "json") return ok(report);
    return new Response(reportCsv(report), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="monitor-${report.domain}-${report.period.from.slice(0, 10)}-${report.period.to.slice(0, 10)}.csv"`,
      },
    });
  }),
});
