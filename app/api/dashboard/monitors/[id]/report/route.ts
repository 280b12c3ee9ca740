// GET /api/dashboard/monitors/:id/report: the report as CSV for the dashboard's download link (session auth).
import { NextResponse } from "next/server";
import { currentActor } from "@/lib/auth/session";
import { FormError } from "@/lib/dashboard/errors";
import { monitorReportCsv } from "@/lib/dashboard/monitors";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const ctx = await currentActor();
  if (!ctx) return NextResponse.json({ error: "Sign in first." }, { status: 401 });
  const { id } = await params;
  if (!UUID.test(id)) return NextResponse.json({ error: "Monitor not found." }, { status: 404 });
  const url = new URL(req.url);
  try {
    const { csv, filename } = await monitorReportCsv(ctx.db, ctx.actor, id, {
      from: url.searchParams.get("from") ?? undefined,
      to: url.searchParams.get("to") ?? undefined,
      compare: url.searchParams.get("compare") ?? undefined,
    });
    return new Response(csv, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${filename}"`,
        "cache-control": "no-store",
      },
    });
  } catch (err) {
    if (err instanceof FormError) {
      const status = /not found/i.test(err.message) ? 404 : 400;
      return NextResponse.json({ error: err.message, field: err.field }, { status });
    }
    throw err;
  }
}
