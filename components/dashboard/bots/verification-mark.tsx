import { formatNumber } from "@/lib/dashboard/format";

export interface Verification {
  visits: number;
  verified: number;
  spoofed: number;
  verifiedBy: { signature: number; ip: number; rdns: number };
}

/** "signature", "IP range and reverse DNS": the methods that decided the verified visits. */
function verifiedHow(v: Verification): string {
  const methods = [
    v.verifiedBy.signature > 0 ? "signature" : null,
    v.verifiedBy.ip > 0 ? "IP range" : null,
    v.verifiedBy.rdns > 0 ? "reverse DNS" : null,
  ].filter((m) => m !== null);
  return methods.join(" and ");
}

/**
 * A bot's verification in a line that wraps: how many visits were proven and by which method (a signature of
 * the operator, its published IP ranges, or reverse DNS), and how many claimed the bot from elsewhere (spoofed).
 */
export function VerificationMark({ v }: { v: Verification }) {
  const how = verifiedHow(v);
  const verified =
    v.verified === 0 ? null : v.verified === v.visits ? (
      <span className="font-medium text-emerald-800">✓ verified{how ? ` by ${how}` : ""}</span>
    ) : (
      <span className="text-slate-700">
        ✓ {formatNumber(v.verified)} verified{how ? ` by ${how}` : ""}
      </span>
    );
  const spoofed =
    v.spoofed > 0 ? (
      <span className="font-medium text-red-700">⚠ {formatNumber(v.spoofed)} spoofed</span>
    ) : null;
  if (!verified && !spoofed) return <span className="text-slate-600">not verified</span>;
  return (
    <span className="inline-flex flex-col gap-0.5">
      {verified}
      {spoofed}
    </span>
  );
}
