import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ToolLauncher } from "@/components/dashboard/tool-launcher";
import { PageHeader } from "@/components/ui/card";
import { requireActor } from "@/lib/auth/session";
import { getCreditAccount } from "@/lib/credits/credits";
import { findToolBlock } from "@/lib/dashboard/tools";
import { describeToolStatus, getTool } from "@/lib/tools/catalog";
import { readServerEnv } from "@/lib/tools/server-env";

export async function generateMetadata({ params }: { params: Promise<{ tool: string }> }): Promise<Metadata> {
  return { title: getTool((await params).tool)?.title ?? "Tool" };
}

export default async function ToolPage({ params }: { params: Promise<{ tool: string }> }) {
  const { tool } = await params;
  const info = getTool(tool);
  if (!info) notFound();
  const { db, actor } = await requireActor();
  const env = readServerEnv();
  const [credits, block] = await Promise.all([
    getCreditAccount(db, actor.accountId),
    findToolBlock(db, info.name, env),
  ]);
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/dashboard/tools" className="link">
          ← All tools
        </Link>
      </p>
      <PageHeader title={info.title} description={info.summary} />
      <ToolLauncher tool={info.name} credits={credits} status={describeToolStatus(info, env)} block={block} />
    </>
  );
}
