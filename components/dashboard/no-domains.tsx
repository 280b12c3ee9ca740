import Link from "next/link";
import { Card, PageHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";

/** What a domain-based page shows before the account has a domain. */
export function NoDomains({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <EmptyState>
          Register a domain first:{" "}
          <Link href="/dashboard/domains" className="link">
            Domains
          </Link>
          .
        </EmptyState>
      </Card>
    </>
  );
}
