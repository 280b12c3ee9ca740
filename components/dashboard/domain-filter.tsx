/** A GET form: domain picker plus a days control (and a limit control on the citations page). */
export function DomainFilter({
  domains,
  domain,
  days,
  dayOptions,
  limit,
  limitBounds,
}: {
  domains: string[];
  domain: string;
  days: number;
  dayOptions: number[];
  limit?: number;
  /** The limit's bounds, from the API's own (the citations page passes CITATIONS_LIMIT). */
  limitBounds?: { min: number; max: number };
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
      {limit !== undefined ? (
        <div>
          <label htmlFor="f-limit" className="field-label">
            Rows
          </label>
          <input
            id="f-limit"
            name="limit"
            type="number"
            min={limitBounds?.min}
            max={limitBounds?.max}
            defaultValue={limit}
            className="field-input w-24"
          />
        </div>
      ) : null}
      <button type="submit" className="btn-secondary py-2">
        Show
      </button>
    </form>
  );
}
