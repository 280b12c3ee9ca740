import Link from "next/link";
import { Card, PageHeader } from "@/components/ui/card";

// A dashboard address that leads nowhere (a mistyped link, a job past its 7 days), inside the dashboard's frame.
export default function DashboardNotFound() {
  return (
    <>
      <PageHeader title="Page not found" description="Nothing is at this address in your dashboard." />
      <Card>
        <div className="space-y-2 text-sm text-slate-700" data-testid="dashboard-404">
          <p>
            The link may be mistyped, or what it showed is gone: jobs and their results are kept for 7 days.
          </p>
          <p>
            <Link className="link" href="/dashboard">
              Go to the overview
            </Link>{" "}
            or pick a section from the menu.
          </p>
        </div>
      </Card>
    </>
  );
}
