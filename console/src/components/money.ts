/** Minor units (cents) written in their currency, exactly: no rounding beyond the currency's own. */
export const formatMoney = (cents: number | null | undefined, currency: string | null | undefined) =>
  cents === null || cents === undefined
    ? '—'
    : new Intl.NumberFormat(undefined, { style: 'currency', currency: currency ?? 'USD' }).format(
        cents / 100,
      );
