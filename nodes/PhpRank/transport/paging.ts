import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { MAX_PAGE_SIZE, PAGE_SIZES } from '../api';
import { describePagingError, type PagingProblem, redactedNode } from './errors';
import { type Caller, phpRankRequest } from './request';

// The paging rule (ARCHITECTURE.md, Paging) and readList, the one list reader: every list read of
// the node goes through it, so a paging problem becomes a node error in one place.

/** One answer of a list endpoint: its records, and Laravel's paginator meta ({} when absent). */
export interface ListPage {
	records: IDataObject[];
	meta: IDataObject;
}

type Key = string | number;

/** Where a run stopped by `maxPages` or `stopEarly` resumes (plain JSON, for static data or a token). */
export interface PagingCursor {
	perPage: number;
	page: number;
	/** Key of the last record returned; null before the first. */
	frontier: Key | null;
	/** At least this many records stood at or above the frontier at the last request. */
	above: number;
	total: number | null;
	/** The page size the server answers with, when known (meta.per_page, else its fullest page); absent in older cursors. */
	served?: number;
}

export interface PagingOptions<T> {
	perPage: number;
	limit?: number;
	/** Records it rejects are read past (they move the reader on), neither returned nor counted. */
	keep?: (record: IDataObject) => boolean;
	keyOf: (record: IDataObject) => Key;
	/** Shapes each batch of new records as it is accepted, so raw pages are not held. */
	map?: (records: IDataObject[]) => T[];
	/** A record it accepts ends the list: it and the records after it are not returned. */
	stopAt?: (record: IDataObject) => boolean;
	/** Requests this run may send; it then ends with `complete: false` and a cursor. */
	maxPages?: number;
	/** Asked before each request after the first; true ends the run as `maxPages` does. */
	stopEarly?: () => boolean;
	/** Sorted by key, highest first, with new records only at the top: makes the run exact. */
	newestFirst?: boolean;
	/** Continue a run that ended with a cursor (same perPage; otherwise it starts over). */
	resume?: PagingCursor;
}

export interface PagingResult<T> {
	items: T[];
	/** The run reached the end of the list or a `stopAt` record (not a limit, maxPages or stopEarly). */
	complete: boolean;
	/** A complete run returned every record that existed throughout: always with `newestFirst`, else when the total never moved. */
	steady: boolean;
	requests: number;
	/** Where the run stopped; also after a complete run (its frontier is the lowest key returned). */
	cursor: PagingCursor;
}

export type { PagingProblem };

/** Thrown by `readPages`; callers turn it into a node error (transport/errors.ts: describePagingError). */
export class PagingError extends Error {
	constructor(readonly problem: PagingProblem) {
		super(
			problem.reason === 'page-ignored'
				? `Asked for page ${problem.asked}, got page ${problem.answered}`
				: problem.reason === 'short'
					? `The list holds ${problem.total} records, its pages ended after ${problem.returned}`
					: `No end of the list after ${problem.requests} requests`,
		);
		this.name = 'PagingError';
	}
}

/** Requests a run may send: twice the pages the first total calls for (step-backs), plus growth. */
export function requestBound(total: number, perPage: number): number {
	return 2 * Math.ceil(total / perPage) + 10;
}

interface Island {
	request: number;
	page: number;
	offset: number;
	/** Positions the page covers by its meta (at least its records). */
	span: number;
	records: IDataObject[];
	keys: Key[];
	total: number | null;
	end: boolean;
}

function finite(value: unknown): number | undefined {
	const number = Number(value);
	return value !== undefined && value !== null && value !== '' && Number.isFinite(number)
		? number
		: undefined;
}

function positive(value: unknown): number | undefined {
	const number = finite(value);
	return number !== undefined && number >= 1 ? Math.floor(number) : undefined;
}

/** Where a page stands in the list, by the server's answer (`meta`), and whether it is the last. */
interface Place {
	metaSize?: number;
	/** The server's page size as known after this answer (0: not known yet). */
	served: number;
	/** The page size positions are counted in. */
	size: number;
	offset: number;
	pageTotal: number | null;
	/** Positions the page covers (at least its records): a cut page still moves the reader past them. */
	span: number;
	end: boolean;
}

/** Positions from the answer, not the size asked for: an instance or proxy may answer fewer. */
function placeOf(
	page: number,
	count: number,
	meta: IDataObject,
	served: number,
	perPage: number,
): Place {
	const metaSize = positive(meta.per_page);
	const known = metaSize ?? (served > 0 ? served : undefined);
	const nowServed = metaSize ?? Math.max(served, count);
	const size = nowServed > 0 ? nowServed : perPage;
	const from = positive(meta.from);
	const to = finite(meta.to);
	const pageTotal = finite(meta.total) ?? null;
	const lastPage = finite(meta.last_page);
	const end =
		count === 0 ||
		(lastPage !== undefined
			? page >= lastPage
			: to !== undefined && pageTotal !== null
				? to >= pageTotal
				: known !== undefined && count < known);
	const span = Math.max(
		count,
		from !== undefined && to !== undefined
			? to - from + 1
			: metaSize !== undefined && lastPage !== undefined && page < lastPage
				? metaSize
				: 0,
	);
	return {
		metaSize,
		served: nowServed,
		size,
		offset: from !== undefined ? from - 1 : (page - 1) * size,
		pageTotal,
		span,
		end,
	};
}

/** One page's answer as the reader sees it, cut at a `stopAt` record. */
interface Step {
	records: IDataObject[];
	keys: Key[];
	/** Index of the `stopAt` record, or -1. */
	stop: number;
	metaSize?: number;
	size: number;
	offset: number;
	pageTotal: number | null;
	span: number;
	end: boolean;
}

class PageReader<T> {
	private readonly limit: number;
	private readonly newestFirst: boolean;
	private readonly map: (records: IDataObject[]) => T[];
	private readonly resume?: PagingCursor;
	private page: number;
	private frontier: Key | null;
	private above: number;
	private total: number | null;
	/** The server's page size: meta.per_page, else the fullest page it answered (0: not known yet). */
	private served: number;
	private stopped = false;
	/** Only without newestFirst: there, `frontier` alone tells what was returned. */
	private readonly returned = new Set<Key>();
	private readonly items: T[] = [];
	private count = 0;
	private skipped = 0;
	private island?: Island;
	private previous?: { page: number; keys: Key[] };
	private requests = 0;
	private bound = Infinity;
	private steady = true;

	constructor(private readonly options: PagingOptions<T>) {
		this.limit = options.limit ?? Infinity;
		this.newestFirst = options.newestFirst ?? false;
		this.map = options.map ?? ((records: IDataObject[]) => records as unknown as T[]);
		this.resume = options.resume?.perPage === options.perPage ? options.resume : undefined;
		this.page = this.resume?.page ?? 1;
		this.frontier = this.resume?.frontier ?? null;
		this.above = this.resume?.above ?? 0;
		this.total = this.resume?.total ?? null;
		this.served = positive(this.resume?.served) ?? 0;
	}

	async read(fetchPage: (page: number) => Promise<ListPage>): Promise<PagingResult<T>> {
		const { maxPages = Infinity, stopEarly } = this.options;
		for (;;) {
			if (this.requests >= maxPages || (this.requests > 0 && stopEarly?.()))
				return this.result(false);
			if (this.requests >= this.bound) {
				throw new PagingError({
					reason: 'not-converging',
					requests: this.requests,
					total: this.total ?? 0,
					perPage: this.options.perPage,
				});
			}
			const step = this.place(await fetchPage(this.page));
			if (this.heldBack(step)) continue;
			this.advance(step);
			this.joinIsland(step);
			if (this.count >= this.limit) return this.result(step.end);
			if (step.end) return this.finish(step.metaSize);
			this.page++;
		}
	}

	/**
	 * Whether, given this answer to the page it waits for, the reader asks for the next page: the
	 * total did not move and the page continues the run. Only then is the next page read ahead, so
	 * every request sent is one the rule reads (none dropped, none changing the list unseen).
	 */
	readsOn(page: number, meta: IDataObject): boolean {
		if (page !== this.page || this.island || this.stopped) return false;
		const total = finite(meta.total) ?? null;
		if (this.total !== null && total !== this.total) return false;
		const count = positive(meta.per_page) ?? 0;
		const place = placeOf(page, count, meta, this.served, this.options.perPage);
		return !place.end && this.above >= place.offset;
	}

	private isNew(key: Key): boolean {
		return this.newestFirst
			? this.frontier === null || Number(key) < Number(this.frontier)
			: !this.returned.has(key);
	}

	private place({ records, meta }: ListPage): Step {
		this.requests++;
		const current = finite(meta.current_page);
		if (current !== undefined && current !== this.page) {
			throw new PagingError({ reason: 'page-ignored', asked: this.page, answered: current });
		}
		const keys = records.map(this.options.keyOf);
		this.refuseEcho(keys);
		const place = placeOf(this.page, records.length, meta, this.served, this.options.perPage);
		this.served = place.served;
		this.followTotal(place.pageTotal, place.size);
		const step: Step = { ...place, records, keys, stop: -1 };
		this.cutAtStop(step);
		return step;
	}

	/** 'echo' proxies rewrite meta but not the data: a page that repeats the one before it. */
	private refuseEcho(keys: Key[]): void {
		const previous = this.previous;
		if (
			previous &&
			this.page > previous.page &&
			keys.length > 0 &&
			keys.join('\n') === previous.keys.join('\n')
		) {
			throw new PagingError({ reason: 'page-ignored', asked: this.page, answered: previous.page });
		}
		this.previous = { page: this.page, keys };
	}

	/** Between two requests meta.total moves by (created - deleted): `above` follows it. */
	private followTotal(pageTotal: number | null, size: number): void {
		if (pageTotal === null) return;
		if (this.bound === Infinity) this.bound = requestBound(pageTotal, size);
		if (this.total !== null && pageTotal !== this.total) {
			this.steady = false;
			this.above = Math.max(0, this.above + pageTotal - this.total);
		}
		this.total = pageTotal;
	}

	private cutAtStop(step: Step): void {
		const { stopAt } = this.options;
		step.stop = stopAt ? step.records.findIndex(stopAt) : -1;
		if (step.stop === -1) return;
		step.records = step.records.slice(0, step.stop);
		step.keys = step.keys.slice(0, step.stop);
		step.span = step.records.length;
		step.end = true;
		this.stopped = true;
	}

	/** A page that may start past `above`: kept as an island, the reader steps back. */
	private heldBack(step: Step): boolean {
		if (this.above >= step.offset || this.startsAtFrontier(step.keys)) return false;
		const { records, keys, offset, span, pageTotal, end } = step;
		this.island =
			records.length > 0
				? {
						request: this.requests,
						page: this.page,
						offset,
						span,
						records,
						keys,
						total: pageTotal,
						end,
					}
				: undefined;
		this.page = Math.max(1, Math.floor(this.above / step.size) + 1);
		return true;
	}

	private startsAtFrontier(keys: Key[]): boolean {
		const { frontier } = this;
		return (
			frontier !== null &&
			(this.newestFirst
				? keys.length > 0 && Number(keys[0]) >= Number(frontier)
				: keys.includes(frontier))
		);
	}

	private advance(step: Step): void {
		if (this.island && this.page >= this.island.page) this.island = undefined;
		this.accept(step.records, step.keys);
		const last = step.keys[step.keys.length - 1];
		if (
			step.records.length > 0 &&
			(this.isNew(last) || last === this.frontier || !this.newestFirst)
		) {
			this.frontier = last;
			this.above = step.offset + step.span;
		} else {
			this.above = Math.max(this.above, step.offset + step.span);
		}
	}

	private accept(records: IDataObject[], keys: Key[]): void {
		const { keep, keyOf } = this.options;
		let fresh = records.filter((_, i) => this.isNew(keys[i]));
		if (keep) {
			const kept = fresh.filter(keep);
			this.skipped += fresh.length - kept.length;
			if (!this.newestFirst)
				for (const record of fresh) if (!kept.includes(record)) this.returned.add(keyOf(record));
			fresh = kept;
		}
		fresh = fresh.slice(0, this.limit - this.count);
		if (fresh.length === 0) return;
		if (!this.newestFirst) for (const record of fresh) this.returned.add(keyOf(record));
		this.count += fresh.length;
		this.items.push(...this.map(fresh));
	}

	/** The island returned once a re-read page reaches into it (or ends right before it). */
	private joinIsland(step: Step): void {
		const island = this.island;
		if (!island || step.stop !== -1 || !this.joins(island, step)) return;
		this.island = undefined;
		this.accept(island.records, island.keys);
		const bottom = island.keys[island.keys.length - 1];
		if (this.newestFirst ? this.isNew(bottom) : !step.keys.includes(bottom)) {
			this.frontier = bottom;
			const moved = this.total !== null && island.total !== null ? this.total - island.total : 0;
			this.above = Math.max(this.above, island.offset + island.span + moved);
			this.page = island.page;
			step.end = island.end;
		}
	}

	private joins(target: Island, { keys, size }: Step): boolean {
		return (
			keys.length > 0 &&
			((this.newestFirst
				? Number(keys[keys.length - 1]) <= Number(target.keys[0])
				: target.keys.some((key) => keys.includes(key))) ||
				(this.requests === target.request + 1 &&
					this.page === target.page - 1 &&
					keys.length === size &&
					keys[keys.length - 1] === this.frontier &&
					this.total !== null &&
					target.total !== null &&
					this.total <= target.total))
		);
	}

	/** Every page read, nothing created or deleted, and still records missing: not the whole list. */
	private finish(metaSize: number | undefined): PagingResult<T> {
		const { total } = this;
		if (
			this.limit === Infinity &&
			!this.resume &&
			!this.stopped &&
			this.steady &&
			total !== null &&
			this.count + this.skipped < total
		) {
			throw new PagingError({
				reason: 'short',
				total,
				returned: this.count + this.skipped,
				requests: this.requests,
				perPage: metaSize ?? this.options.perPage,
			});
		}
		return this.result(true);
	}

	private result(complete: boolean): PagingResult<T> {
		const { page, frontier, above, total, served } = this;
		return {
			items: this.items,
			complete,
			steady: complete && (this.newestFirst || this.steady),
			requests: this.requests,
			cursor: {
				perPage: this.options.perPage,
				page,
				frontier,
				above,
				total,
				...(served > 0 ? { served } : {}),
			},
		};
	}
}

// Reads a list by the paging rule: its records in list order, each once; when nothing changes,
// N records cost ceil(N / k) requests for the server's page size k.
export async function readPages<T = IDataObject>(
	fetchPage: (page: number) => Promise<ListPage>,
	options: PagingOptions<T>,
): Promise<PagingResult<T>> {
	return await new PageReader(options).read(fetchPage);
}

// One page of a list: n8n's HTTP helper by default, Get Many's own pipeline for Get Many.
// `onListPage` is called with the page's paginator once the page is known to be good.
export type PageFetcher = (
	qs: IDataObject,
	onListPage?: (meta: IDataObject) => void,
) => Promise<ListPage>;

export interface ListOptions<T> extends Omit<PagingOptions<T>, 'keyOf' | 'newestFirst'> {
	keyOf?: PagingOptions<T>['keyOf'];
	// Asks for the next page once one is answered, so phpRank prepares it while this one is shaped;
	// dropped when the rule asks for another page (the list moved).
	readAhead?: boolean;
}

// A resource's list on the credential's own host: page=1..n, never links.next (an absolute URL
// that could carry the key elsewhere); exact when `qs` sorts it newest first.
export async function readList<T = IDataObject>(
	caller: Caller,
	qs: IDataObject,
	options: ListOptions<T>,
	fetcher?: PageFetcher,
): Promise<PagingResult<T>> {
	const { ctx, spec } = caller;
	const fetch: PageFetcher =
		fetcher ??
		(async (pageQs) => {
			const { body, meta } = await phpRankRequest(
				caller,
				{ url: spec.path, method: 'GET', qs: pageQs },
				'list',
			);
			return { records: body.data as IDataObject[], meta: meta ?? {} };
		});
	const order = spec.newestFirst;
	const reader = new PageReader({
		keyOf: (record) => record[spec.key] as Key,
		newestFirst:
			order !== undefined &&
			Object.entries(order).every(([name, value]) => (qs[name] ?? value) === value),
		...options,
	});
	const pages = pagesOf(fetch, qs, options, reader);
	try {
		return await reader.read(pages.fetchPage);
	} catch (error) {
		const node = redactedNode(ctx.getNode(), spec);
		if (error instanceof PagingError) throw describePagingError(node, error.problem);
		// Hands back the error itself when it is one already (every request error is).
		throw new NodeApiError(node, error as JsonObject);
	} finally {
		await pages.settle();
	}
}

/** The pages as the reader asks for them, read ahead if asked; `settle`: none still on its way. */
function pagesOf(
	fetch: PageFetcher,
	qs: IDataObject,
	{ perPage, limit = Infinity, readAhead = false }: ListOptions<unknown>,
	reader: { readsOn(page: number, meta: IDataObject): boolean },
): { fetchPage: (page: number) => Promise<ListPage>; settle: () => Promise<unknown> } {
	let ahead: { page: number; result: Promise<ListPage> } | undefined;
	const dropped: Array<Promise<unknown>> = [];
	const request = (page: number): Promise<ListPage> =>
		fetch(
			{ ...qs, per_page: perPage, page },
			readAhead
				? (meta) => {
						const more =
							reader.readsOn(page, meta) &&
							Number(meta.current_page ?? page) === page &&
							page < Number(meta.last_page) &&
							page * Number(meta.per_page ?? perPage) < limit;
						if (!more) return;
						const result = request(page + 1);
						result.catch(() => undefined);
						ahead = { page: page + 1, result };
					}
				: undefined,
		);
	return {
		fetchPage: async (page) => {
			if (ahead && ahead.page !== page) dropped.push(ahead.result);
			const next = ahead?.page === page ? ahead.result : request(page);
			ahead = undefined;
			return await next;
		},
		settle: async () => {
			if (ahead) dropped.push(ahead.result);
			return await Promise.allSettled(dropped);
		},
	};
}

/** A cursor handed out as a picker's pagination token, or undefined for anything else. */
export function cursorFromToken(token: string | undefined): PagingCursor | undefined {
	try {
		const cursor = JSON.parse(token ?? '') as PagingCursor;
		return typeof cursor === 'object' &&
			cursor !== null &&
			Number.isSafeInteger(cursor.page) &&
			cursor.page >= 1
			? cursor
			: undefined;
	} catch {
		return undefined;
	}
}

export function pageSizeFor(limit: number): number {
	return PAGE_SIZES.find((size) => size >= limit) ?? MAX_PAGE_SIZE;
}
