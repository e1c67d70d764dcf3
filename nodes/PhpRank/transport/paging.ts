// INTERIM: replaced by the shared paging rule from branch htrigger before landing.
import type { IDataObject } from 'n8n-workflow';

export interface ListPage {
	records: IDataObject[];
	meta: IDataObject;
}

export interface PagingOptions<T> {
	perPage: number;
	limit?: number;
	keyOf: (record: IDataObject) => string | number;
	map?: (records: IDataObject[]) => T[];
	stopAt?: (record: IDataObject) => boolean;
	maxPages?: number;
}

export async function readPages<T = IDataObject>(
	fetchPage: (page: number) => Promise<ListPage>,
	options: PagingOptions<T>,
): Promise<{ items: T[]; complete: boolean; steady: boolean; requests: number }> {
	const { perPage, limit = Infinity, keyOf, map = (r) => r as unknown as T[] } = options;
	const seen = new Set<string | number>();
	const items: T[] = [];
	let requests = 0;
	for (let page = 1; items.length < limit; page++) {
		const { records, meta } = await fetchPage(page);
		requests++;
		const fresh = records.filter((r) => !seen.has(keyOf(r)));
		fresh.forEach((r) => seen.add(keyOf(r)));
		items.push(...map(fresh));
		const lastPage = Number(meta.last_page);
		if (records.length === 0 || (Number.isFinite(lastPage) ? page >= lastPage : records.length < perPage)) break;
	}
	return { items: items.slice(0, limit), complete: true, steady: true, requests };
}

export function isLastPage(meta: IDataObject, page: number, records: number, perPage: number): boolean {
	if (records === 0) return true;
	const lastPage = Number(meta.last_page);
	return Number.isFinite(lastPage) ? page >= lastPage : records < Number(meta.per_page ?? perPage);
}
