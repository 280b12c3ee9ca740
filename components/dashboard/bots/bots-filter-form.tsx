/**
 * The bots page's GET form: domain and period. A bot or page filter in force rides along as a hidden field, so
 * changing the period keeps it (changing the domain drops it: another site has other bots and pages).
 */
export function BotsFilterForm({
  domains,
  domain,
  days,
  dayOptions,
  bot,
  page,
}: {
  domains: string[];
  domain: string;
  days: number;
  dayOptions: number[];
  bot?: string;
  page?: string;
}) {
  return (
    <form method="get" className="mb-4 flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor="f-domain" className="field-label">
          Domain
        </label>
        <select id="f-domain" name="domain" defaultValue={domain} className="field-input">
          {domains.map((d) => (
            <option key={d}>{d}</option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="f-days" className="field-label">
          Period
        </label>
        <select id="f-days" name="days" defaultValue={String(days)} className="field-input">
          {dayOptions.map((d) => (
            <option key={d} value={d}>
              Last {d} days
            </option>
          ))}
        </select>
      </div>
      {bot ? <input type="hidden" name="bot" value={bot} /> : null}
      {page ? <input type="hidden" name="page" value={page} /> : null}
      <button type="submit" className="btn-secondary py-2">
        Show
      </button>
    </form>
  );
}
