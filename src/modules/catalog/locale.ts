/**
 * Language choice for localized text: the `locale` query wins over
 * `Accept-Language` (q-values honoured), and English closes every chain.
 */
export function localeChain(locale: string | undefined, acceptLanguage: string | undefined): string[] {
  if (!locale && !acceptLanguage) return ['en'];
  const chain: string[] = [];
  const add = (tag: string) => {
    const [lang = '', region] = tag.split('-');
    const full = region ? `${lang.toLowerCase()}-${region.toUpperCase()}` : lang.toLowerCase();
    for (const candidate of region ? [full, lang.toLowerCase()] : [full])
      if (candidate && !chain.includes(candidate)) chain.push(candidate);
  };
  if (locale) add(locale);
  const weighted = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((l) => /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})?$/.test(l.tag) && l.q > 0 && !Number.isNaN(l.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of weighted) add(tag);
  add('en');
  return chain;
}

/** The first language of the chain the text has, else English, else any. */
export function pickLocalized(texts: Record<string, string>, chain: readonly string[]): string {
  for (const tag of chain) if (texts[tag]) return texts[tag]!;
  return texts.en ?? Object.values(texts)[0] ?? '';
}
