// The credit packs on sale: the one place their credits and prices are defined. Client-safe (the billing page
// renders them; the checkout and the webhook read the same list).

export interface CreditPack {
  id: string;
  name: string;
  credits: number;
  /** In the currency's smallest unit (cents). */
  price: number;
}

export const PACK_CURRENCY = "usd";

export const CREDIT_PACKS = [
  { id: "starter", name: "Starter", credits: 1_000, price: 1_000 },
  { id: "growth", name: "Growth", credits: 5_000, price: 4_500 },
  { id: "scale", name: "Scale", credits: 20_000, price: 16_000 },
] as const satisfies readonly CreditPack[];

export function findPack(id: string): CreditPack | undefined {
  return CREDIT_PACKS.find((p) => p.id === id);
}

/** "$10.00": an amount in the smallest unit of a currency, in the reader's locale. */
export function formatMoney(amount: number, currency: string, locale?: string): string {
  return new Intl.NumberFormat(locale ?? "en-US", {
    style: "currency",
    currency: currency.toUpperCase(),
  }).format(amount / 100);
}
