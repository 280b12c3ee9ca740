import { oauthProviders } from "@/auth";
import { oauthSignInAction } from "@/lib/actions/oauth-sign-in";

const LABELS = { github: "Continue with GitHub", google: "Continue with Google" } as const;

/** Shown only for the providers this server has credentials for. */
export function OAuthButtons({ next }: { next?: string }) {
  const providers = oauthProviders();
  if (providers.length === 0) return null;
  return (
    <div className="mt-6 space-y-2 border-t border-slate-200 pt-6">
      {providers.map((p) => (
        <form key={p} action={oauthSignInAction}>
          <input type="hidden" name="provider" value={p} />
          {next ? <input type="hidden" name="next" value={next} /> : null}
          <button type="submit" className="btn-secondary w-full py-2">
            {LABELS[p]}
          </button>
        </form>
      ))}
    </div>
  );
}
