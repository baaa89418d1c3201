/** Page/per_page pagination with GitHub's Link header. */
export function paginate<T>(items: T[], query: URLSearchParams, selfUrl: string, maxPerPage = 100): { page: T[]; headers: Record<string, string> } {
  const perPage = Math.min(maxPerPage, Math.max(1, Number.parseInt(query.get('per_page') ?? '30', 10) || 30));
  const page = Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (n: number): string => {
    const url = new URL(selfUrl);
    url.searchParams.set('per_page', String(perPage));
    url.searchParams.set('page', String(n));
    return url.toString();
  };
  const rels: string[] = [];
  if (page > 1) rels.push(`<${link(page - 1)}>; rel="prev"`, `<${link(1)}>; rel="first"`);
  if (page < last) rels.push(`<${link(page + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`);
  return { page: items.slice((page - 1) * perPage, page * perPage), headers: rels.length > 0 ? { link: rels.join(', ') } : {} };
}
