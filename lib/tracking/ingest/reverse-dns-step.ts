import { promises as dns } from "node:dns";
import type { NewVisit } from "@/lib/db/schema";
import { createReverseDnsVerifier, type ReverseDnsVerifier } from "../catalog/reverse-dns";

let shared: ReverseDnsVerifier | null = null;

/**
 * The verifier ingest uses: on when TRACKING_REVERSE_DNS=on (it makes DNS queries from the server), using the
 * system resolver with a 1.5 s limit per address and a cache.
 */
export function ingestReverseDnsVerifier(): ReverseDnsVerifier | null {
  if (process.env.TRACKING_REVERSE_DNS !== "on") return null;
  shared ??= createReverseDnsVerifier({
    resolver: {
      reverse: (ip) => dns.reverse(ip),
      resolve: async (host) => {
        const [v4, v6] = await Promise.allSettled([dns.resolve4(host), dns.resolve6(host)]);
        return [
          ...(v4.status === "fulfilled" ? v4.value : []),
          ...(v6.status === "fulfilled" ? v6.value : []),
        ];
      },
    },
  });
  return shared;
}

/**
 * Settles, by reverse DNS, the visits IP lists could not judge ("unknown") of bots whose operators document
 * reverse-DNS verification. Lookups run in parallel, each within the verifier's time limit.
 */
export async function confirmByReverseDns(
  rows: NewVisit[],
  verifier: ReverseDnsVerifier | null,
): Promise<void> {
  if (!verifier) return;
  await Promise.all(
    rows.map(async (row) => {
      if (row.verification !== "unknown" || !row.botName || !row.ip || !verifier.supports(row.botName))
        return;
      row.verification = await verifier.verify(row.botName, row.ip);
    }),
  );
}
