import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { MAX_PAGE_SIZE, PAGE_SIZES } from '../api';
import { describePagingError, type PagingProblem, redactedNode } from './errors';
import { phpRankRequest, type RequestContext } from './request';
import type { ResourceSpec } from './resource';
import type { Run } from './run';

/*
 * phpRank's lists are offset-paged: page p holds records (p-1)·k … p·k-1 of the list as it is when
 * that request arrives. A list that changes while it is read shifts under the reader: a record
 * created above the reader's position pushes the rest down (the next page repeats a record), one
 * deleted above it pulls the rest up (a record crosses the page boundary unread).
 *
 * The rule here: `frontier` is the last record returned and `above` a lower bound on how many
 * records stand at or above it. Between two requests meta.total moves by (created - deleted); when
 * records are only created at the top of the list, the records at or above the frontier moved by
 * at least that much, so `above` follows the total. A page that starts at or before position
 * `above` (or shows a record at or above the frontier) continues the run: its records below the
 * frontier are new and returned, in list order. A page that may start past it (the total fell) is
 * held back as an island, and the reader steps back to the page holding position `above`. The
 * island is returned once a re-read page reaches into it, or when the page just before it, read
 * right after it, ends at the frontier and the total did not grow in between (nothing was created
 * that could have pushed a missed record down out of the re-read page).
 *
 * Exact (every record that exists for the whole run returned once, none twice) while records are
 * only created or only deleted during the run, for any stable order. With `newestFirst` (sorted by
 * key, highest first, records created only at the top: reports with sort_by=id&sort=desc) also
 * while both happen, unless reports were both created and deleted between an island's request and
 * the next one; records created during such a run are not returned. Otherwise
 * best effort: for other orders a record created below the reader can hide a deletion above it
 * (the total does not fall); equal sort values (url, result) have no stable order between
 * requests; a Result filter lets a re-run move a report into the list mid-way.
 * phpRank counts the total and reads the page in two queries: a deletion between the two, within
 * one request, goes unseen.
 *
 * Positions come from the server's answer, never from the page size asked for: an instance may
 * cap it (an admin's setting) and a proxy may cut pages. The page size is meta.per_page, else the
 * fullest page answered; page p starts at meta.from when sent, else at (p-1)·that size; it covers
 * meta.from…meta.to when sent, else a whole page when it is not the last one (a page holding fewer
 * records than that is counted as its span: the records it left out are not returned), and the
 * list ends at meta.last_page. A complete, unlimited run from page 1 whose total never moved and
 * that returned fewer records than meta.total fails ('short') rather than return part of the list.
 *
 * Without meta (instances that follow the seed spec) there is no total: the list is read forward
 * and ends at an empty page, or at one shorter than a page before it (a first page shorter than
 * the size asked for may be a cap, so the next one is asked for).
 */

/** One answer of a list endpoint: its records, and Laravel's paginator meta ({} when absent). */
export interface ListPage {
	records: IDataObject[];
	meta: IDataObject;
}

type Key = string | number;

/** Where a run stopped by `maxPages` or `stopEarly` resumes (plain JSON, for static data or a token). */
export interface PagingCursor {
	perPage: number;
	/** The page to ask for next. */
	page: number;
	/** Key of the last record returned; null before the first. */
	frontier: Key | null;
	/** At least this many records stood at or above the frontier at the last request. */
	above: number;
	/** meta.total at the last request; null when the server sends none. */
	total: number | null;
	/** The page size the server answers with, when known (meta.per_page, else its fullest page); absent in older cursors. */
	served?: number;
}

export interface PagingOptions<T> {
	/** The page size asked for (10, 25, 50 or 100). */
	perPage: number;
	/** Stop once this many records were returned (default: no limit). */
	limit?: number;
	/**
	 * Only the records it accepts are returned and counted against `limit`; the others are read
	 * past as if returned (they move the reader on, and count as read for the 'short' check).
	 */
	keep?: (record: IDataObject) => boolean;
	/** Identifies a record: report ID, project name. */
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
	/** Requests sent by this run. */
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
	/** The request that read it. */
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
	/** meta.per_page, when sent. */
	metaSize?: number;
	/** The server's page size as known after this answer (0: not known yet). */
	served: number;
	/** The page size positions are counted in. */
	size: number;
	/** Records before this page. */
	offset: number;
	/** meta.total; null when the server sends none. */
	pageTotal: number | null;
	/** Positions the page covers (at least its records): a cut page still moves the reader past them. */
	span: number;
	/** The list ends with this page. */
	end: boolean;
}

/**
 * Positions from the answer, never from the page size asked for: an instance or proxy may answer
 * fewer records than asked for. `served`: the server's page size known before this answer.
 */
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

/**
 * Reads a list page by page (`fetchPage(1)`, `fetchPage(2)`, …) by the rule above, and returns
 * its records in list order, each once. When nothing changes, N records cost ceil(N / k) requests
 * for the server's page size k (without meta one more when N is a multiple of k, or fewer than the
 * size asked for).
 */
export async function readPages<T = IDataObject>(
	fetchPage: (page: number) => Promise<ListPage>,
	options: PagingOptions<T>,
): Promise<PagingResult<T>> {
	const {
		perPage,
		limit = Infinity,
		keyOf,
		keep,
		stopAt,
		maxPages = Infinity,
		stopEarly,
		newestFirst = false,
	} = options;
	const map = options.map ?? ((records: IDataObject[]) => records as unknown as T[]);
	const resume = options.resume?.perPage === perPage ? options.resume : undefined;

	let page = resume?.page ?? 1;
	let frontier: Key | null = resume?.frontier ?? null;
	let above = resume?.above ?? 0;
	let total: number | null = resume?.total ?? null;
	/** The server's page size: meta.per_page, else the fullest page it answered (0: not known yet). */
	let served = positive(resume?.served) ?? 0;
	let stopped = false;
	const returned = new Set<Key>(); // only without newestFirst: there, `frontier` alone tells what was returned
	const items: T[] = [];
	let count = 0;
	/** Records read and not kept (`keep`). */
	let skipped = 0;
	let island: Island | undefined;
	let previous: { page: number; keys: Key[] } | undefined;
	let requests = 0;
	let bound = Infinity;
	let steady = true;

	const isNew = newestFirst
		? (key: Key) => frontier === null || Number(key) < Number(frontier)
		: (key: Key) => !returned.has(key);
	const accept = (records: IDataObject[], keys: Key[]) => {
		let fresh = records.filter((_, i) => isNew(keys[i]));
		if (keep) {
			const kept = fresh.filter(keep);
			skipped += fresh.length - kept.length;
			if (!newestFirst)
				for (const record of fresh) if (!kept.includes(record)) returned.add(keyOf(record));
			fresh = kept;
		}
		fresh = fresh.slice(0, limit - count);
		if (fresh.length === 0) return;
		if (!newestFirst) for (const record of fresh) returned.add(keyOf(record));
		count += fresh.length;
		items.push(...map(fresh));
	};
	const startsAtFrontier = (keys: Key[]) =>
		frontier !== null &&
		(newestFirst
			? keys.length > 0 && Number(keys[0]) >= Number(frontier)
			: keys.includes(frontier));
	const joins = (target: Island, keys: Key[], at: number, size: number) =>
		keys.length > 0 &&
		((newestFirst
			? Number(keys[keys.length - 1]) <= Number(target.keys[0])
			: target.keys.some((key) => keys.includes(key))) ||
			(requests === target.request + 1 &&
				at === target.page - 1 &&
				keys.length === size &&
				keys[keys.length - 1] === frontier &&
				total !== null &&
				target.total !== null &&
				total <= target.total));
	const result = (complete: boolean): PagingResult<T> => ({
		items,
		complete,
		steady: complete && (newestFirst || steady),
		requests,
		cursor: { perPage, page, frontier, above, total, ...(served > 0 ? { served } : {}) },
	});

	for (;;) {
		if (requests >= maxPages || (requests > 0 && stopEarly?.())) return result(false);
		if (requests >= bound) {
			throw new PagingError({ reason: 'not-converging', requests, total: total ?? 0, perPage });
		}

		const { records: answered, meta } = await fetchPage(page);
		requests++;
		const current = finite(meta.current_page);
		if (current !== undefined && current !== page) {
			throw new PagingError({ reason: 'page-ignored', asked: page, answered: current });
		}
		let keys = answered.map(keyOf);
		// 'echo' proxies rewrite meta but not the data: a page that repeats the one before it.
		if (
			previous &&
			page > previous.page &&
			keys.length > 0 &&
			keys.join('\n') === previous.keys.join('\n')
		) {
			throw new PagingError({ reason: 'page-ignored', asked: page, answered: previous.page });
		}
		previous = { page, keys };

		const place = placeOf(page, answered.length, meta, served, perPage);
		const { metaSize, size, offset, pageTotal } = place;
		served = place.served;
		if (pageTotal !== null) {
			if (bound === Infinity) bound = requestBound(pageTotal, size);
			if (total !== null && pageTotal !== total) {
				steady = false;
				above = Math.max(0, above + pageTotal - total);
			}
			total = pageTotal;
		}

		let records = answered;
		let { end, span } = place;
		const stop = stopAt ? records.findIndex(stopAt) : -1;
		if (stop !== -1) {
			records = records.slice(0, stop);
			keys = keys.slice(0, stop);
			span = records.length;
			end = true;
			stopped = true;
		}

		if (above < offset && !startsAtFrontier(keys)) {
			// Records may have crossed the boundary before this page unread: keep it, read back from `above`.
			island =
				records.length > 0
					? { request: requests, page, offset, span, records, keys, total: pageTotal, end }
					: undefined;
			page = Math.max(1, Math.floor(above / size) + 1);
			continue;
		}
		if (island && page >= island.page) island = undefined;

		accept(records, keys);
		const last = keys[keys.length - 1];
		if (records.length > 0 && (isNew(last) || last === frontier || !newestFirst)) {
			frontier = last;
			above = offset + span;
		} else {
			above = Math.max(above, offset + span);
		}

		if (island && stop === -1 && joins(island, keys, page, size)) {
			const joined = island;
			island = undefined;
			accept(joined.records, joined.keys);
			const bottom = joined.keys[joined.keys.length - 1];
			if (newestFirst ? isNew(bottom) : !keys.includes(bottom)) {
				frontier = bottom;
				const moved = total !== null && joined.total !== null ? total - joined.total : 0;
				above = Math.max(above, joined.offset + joined.span + moved);
				page = joined.page;
				end = joined.end;
			}
		}

		if (count >= limit) return result(end);
		if (end) {
			// Every page read, nothing created or deleted, and still records missing: not the whole list.
			if (
				limit === Infinity &&
				!resume &&
				!stopped &&
				steady &&
				total !== null &&
				count + skipped < total
			) {
				throw new PagingError({
					reason: 'short',
					total,
					returned: count + skipped,
					requests,
					perPage: metaSize ?? perPage,
				});
			}
			return result(true);
		}
		page++;
	}
}

/*
 * The one list reader of the node: Get Many, the pickers, the trigger and the list reads of
 * operations that are more than one request all read a resource's list through `readList`, so a
 * paging problem becomes a node error in one place.
 */

/**
 * Fetches one page of a list (its query with `page` and `per_page` set). By default n8n's HTTP
 * helper (`phpRankRequest`); Get Many sends each page through the operation's own pipeline
 * instead. `onListPage` is to be called with the page's paginator as soon as it is known to be good.
 */
export type PageFetcher = (
	qs: IDataObject,
	onListPage?: (meta: IDataObject) => void,
) => Promise<ListPage>;

export interface ListOptions<T> extends Omit<PagingOptions<T>, 'keyOf' | 'newestFirst'> {
	keyOf?: PagingOptions<T>['keyOf'];
	/**
	 * Once a page is answered (before n8n runs an operation's output steps on it), the next one is
	 * asked for, so phpRank prepares it while this one is shaped. Its request comes at the same
	 * point of the list's life as it would after the shaping; when the paging rule asks for another
	 * page instead (the list moved), it is dropped.
	 */
	readAhead?: boolean;
}

/**
 * A resource's list, read by the paging rule above on the credential's own host (`page=1..n`, never
 * `links.next`, an absolute URL that could carry the key elsewhere): `qs` and `per_page` on every
 * page; records keyed by the spec's key, the rule exact when `qs` sorts the list newest first.
 */
export async function readList<T = IDataObject>(
	ctx: RequestContext,
	spec: ResourceSpec,
	qs: IDataObject,
	options: ListOptions<T>,
	run?: Run,
	fetcher?: PageFetcher,
): Promise<PagingResult<T>> {
	const { perPage, limit = Infinity, readAhead = false } = options;
	const fetch: PageFetcher =
		fetcher ??
		(async (pageQs) => {
			const { body, meta } = await phpRankRequest(
				ctx,
				spec,
				{ url: spec.path, method: 'GET', qs: pageQs },
				'list',
				run,
			);
			return { records: body.data as IDataObject[], meta: meta ?? {} };
		});
	let ahead: { page: number; result: Promise<ListPage> } | undefined;
	let asked = 0;
	const dropped: Array<Promise<unknown>> = [];
	const request = (page: number): Promise<ListPage> =>
		fetch(
			{ ...qs, per_page: perPage, page },
			readAhead
				? (meta) => {
						const more =
							page === asked &&
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
	const order = spec.newestFirst;
	try {
		return await readPages(
			async (page) => {
				asked = page;
				if (ahead && ahead.page !== page) dropped.push(ahead.result);
				const next = ahead?.page === page ? ahead.result : request(page);
				ahead = undefined;
				return await next;
			},
			{
				keyOf: (record) => record[spec.key] as Key,
				newestFirst:
					order !== undefined &&
					Object.entries(order).every(([name, value]) => (qs[name] ?? value) === value),
				...options,
			},
		);
	} catch (error) {
		const node = redactedNode(ctx.getNode(), spec);
		if (error instanceof PagingError) throw describePagingError(node, error.problem);
		// Hands back the error itself when it is one already (every request error is).
		throw new NodeApiError(node, error as JsonObject);
	} finally {
		// Nothing of this read may still be on its way when it has ended.
		if (ahead) dropped.push(ahead.result);
		await Promise.allSettled(dropped);
	}
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

/** The smallest page size that holds `limit` results in one page, or the largest one. */
export function pageSizeFor(limit: number): number {
	return PAGE_SIZES.find((size) => size >= limit) ?? MAX_PAGE_SIZE;
}
