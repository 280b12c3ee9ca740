import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ToolLauncher } from "@/components/dashboard/tool-launcher";
import { Card, PageHeader } from "@/components/ui/card";
import { requireActor } from "@/lib/auth/session";
import { toToolCapability } from "@/lib/capabilities/capabilities";
import { getCreditAccount } from "@/lib/credits/credits";
import { getTool, type ToolName } from "@/lib/tools/catalog";
import { readServerEnv } from "@/lib/tools/server-env";
import { judgeTool } from "@/lib/tools/verdict";

export async function generateMetadata({ params }: { params: Promise<{ tool: string }> }): Promise<Metadata> {
  return { title: getTool((await params).tool)?.title ?? "Tool" };
}

export default async function ToolPage({ params }: { params: Promise<{ tool: string }> }) {
  const { tool } = await params;
  const info = getTool(tool);
  if (!info) notFound();
  const { db, actor } = await requireActor();
  const [credits, verdict] = await Promise.all([
    getCreditAccount(db, actor.accountId),
    judgeTool(db, info, readServerEnv()),
  ]);
  const capability = toToolCapability(info.name as ToolName, verdict);
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/dashboard/tools" className="link">
          ← All tools
        </Link>
      </p>
      <PageHeader title={info.title} description={info.summary} />
      {capability.available ? (
        <ToolLauncher tool={info.name} credits={credits} capability={capability} />
      ) : (
        <Card>
          <div data-testid="unavailable-note" className="text-sm text-slate-800">
            <p className="font-semibold">Not offered on this service yet.</p>
            <p className="mt-1">{capability.message} Nothing can be launched, so nothing is charged.</p>
          </div>
        </Card>
      )}
    </>
  );
}
