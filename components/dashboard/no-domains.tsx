import Link from "next/link";
import { Card, PageHeader } from "@/components/ui/card";

/** What a domain-based page shows before the account has a domain. */
export function NoDomains({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <p className="text-sm text-slate-700">
          Register a domain first:{" "}
          <Link href="/dashboard/domains" className="link">
            Domains
          </Link>
          .
        </p>
      </Card>
    </>
  );
}
