import { DashboardChrome } from "@/components/dashboard/nav-links";
import { QueryProvider } from "@/components/dashboard/providers";
import { VerifyEmailBanner } from "@/components/dashboard/verify-email-banner";
import { isOperator } from "@/lib/accounts/operators";
import { signOutAction } from "@/lib/actions/sign-out";
import { switchAccountAction } from "@/lib/actions/switch-account";
import { requireActor } from "@/lib/auth/session";
import { SIGNUP_BONUS } from "@/lib/credits/credits";
import { type Actor, listMemberships } from "@/lib/dashboard/members";
import { pendingVerification } from "@/lib/dashboard/verification";

type Memberships = Awaited<ReturnType<typeof listMemberships>>;

/** The account switcher (or the account's name) and Sign out. */
function AccountControls({ actor, memberships }: { actor: Actor; memberships: Memberships }) {
  const id = "account-switch";
  return (
    <>
      {memberships.length > 1 ? (
        <form action={switchAccountAction} className="flex min-w-0 max-w-full items-center gap-2">
          <label htmlFor={id} className="sr-only">
            Account
          </label>
          <select
            id={id}
            name="accountId"
            defaultValue={actor.accountId}
            className="w-full min-w-0 max-w-[14rem] truncate rounded-md border border-slate-300 px-2 py-1 text-sm sm:max-w-xs"
          >
            {memberships.map((m) => (
              <option key={m.accountId} value={m.accountId}>
                {m.name} ({m.role})
              </option>
            ))}
          </select>
          <button type="submit" className="btn-secondary">
            Switch
          </button>
        </form>
      ) : (
        <span className="min-w-0 max-w-[14rem] truncate sm:max-w-xs" title={actor.accountName}>
          {actor.accountName} · <span className="font-medium">{actor.role}</span>
        </span>
      )}
      <form action={signOutAction}>
        <button type="submit" className="btn-secondary">
          Sign out
        </button>
      </form>
    </>
  );
}

// Every page below re-checks the session itself (requireActor); this is the frame and the first gate.
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const { db, actor } = await requireActor();
  const [memberships, verify, operator] = await Promise.all([
    listMemberships(db, actor.userId),
    pendingVerification(db, actor.userId, actor.accountId),
    isOperator(db, actor.userId),
  ]);
  return (
    <div className="min-h-screen bg-slate-50">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-indigo-800 focus:shadow"
      >
        Skip to content
      </a>
      <DashboardChrome
        operator={operator}
        account={<AccountControls actor={actor} memberships={memberships} />}
      >
        <main id="main" className="min-w-0 flex-1">
          {verify ? <VerifyEmailBanner email={verify.email} bonus={SIGNUP_BONUS} /> : null}
          <QueryProvider>{children}</QueryProvider>
        </main>
      </DashboardChrome>
    </div>
  );
}
