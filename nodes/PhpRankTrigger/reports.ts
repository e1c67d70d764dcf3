import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { reportSpec } from '../PhpRank/descriptions/report/reportSpec';
import { MAX_PAGE_SIZE, type ResultClass } from '../PhpRank/api';
import { readList } from '../PhpRank/transport/paging';
import type { PagingCursor } from '../PhpRank/transport/paging';
import type { PollAllowance, Reading } from './events/event';

/** Requests a poll may send (ARCHITECTURE.md, "The trigger's requests"). */
export const MAX_REQUESTS_PER_POLL = 10;

/** The reports a trigger watches: the list filters phpRank applies itself. */
export interface ReportFilter {
	project?: string;
	result?: ResultClass;
}

export interface ReportScan {
	/** Newest first, each report once. */
	records: IDataObject[];
	/** The scan reached a report already seen, or the end of the list (not `maxPages`). */
	complete: boolean;
	/** Where the scan stopped: the next scan resumes here; its frontier is the lowest ID returned. */
	cursor: PagingCursor;
}

export interface ScanOptions {
	filter: ReportFilter;
	pageSize: number;
	maxPages?: number;
	/** A report already handled: the scan ends there. */
	isSeen?: (id: number) => boolean;
	resume?: PagingCursor;
	stopEarly?: () => boolean;
}

/**
 * Reads `GET /reports` newest first (by ID: phpRank ignores `sort_by=generated_at`) until a report
 * `isSeen` accepts, the end of the list, or `maxPages` requests (or `stopEarly`).
 */
export async function scanReports(this: IPollFunctions, options: ScanOptions): Promise<ReportScan> {
	const { filter, pageSize, maxPages, isSeen, resume, stopEarly } = options;
	const query: IDataObject = { ...reportSpec.newestFirst };
	if (filter.project) query.project = filter.project;
	if (filter.result) query.result = filter.result;

	const scan = await readList({ ctx: this, spec: reportSpec }, query, {
		perPage: pageSize,
		maxPages,
		stopAt: isSeen && ((record) => isSeen(Number(record.id))),
		resume,
		stopEarly,
	});
	return { records: scan.items, complete: scan.complete, cursor: scan.cursor };
}

/** The IDs a scan read completely: every report among them that existed while it ran was returned. */
export interface Covered {
	from: number;
	below: number;
}

export interface WatchRound {
	/** The reports this poll read. */
	records: IDataObject[];
	covered: Covered;
	/** Where the next poll continues the round; undefined when this poll ended it. */
	cursor?: PagingCursor;
}

/**
 * A poll's part of a round over every watched report, newest first: a round that needs more than
 * the allowance continues at the next poll from `resume`.
 */
export async function watchRound(
	this: IPollFunctions,
	filter: ReportFilter,
	resume: PagingCursor | undefined,
	allowance: PollAllowance,
): Promise<WatchRound> {
	const scan = await scanReports.call(this, {
		filter,
		pageSize: MAX_PAGE_SIZE,
		maxPages: allowance.requests,
		resume,
		stopEarly: allowance.stopEarly,
	});
	// Read completely: below where the last poll stopped, down to where this one did.
	const [lowest, above] = [scan.cursor.frontier, resume?.frontier ?? null];
	return {
		records: scan.records,
		covered: {
			from: scan.complete ? -Infinity : lowest === null ? Infinity : Number(lowest),
			below: above === null ? Infinity : Number(above),
		},
		cursor: scan.complete ? undefined : scan.cursor,
	};
}

/**
 * What an event keeps of the reports a round did not cover. A remembered report in `covered` that
 * the round did not return was deleted: it is left out, so it is forgotten.
 */
export function keepUncovered<T>(
	remembered: Record<string, T>,
	covered: Covered,
): Record<string, T> {
	const kept: Record<string, T> = {};
	for (const [id, value] of Object.entries(remembered)) {
		if (Number(id) < covered.from || Number(id) >= covered.below) kept[id] = value;
	}
	return kept;
}

const byId = (a: IDataObject, b: IDataObject) => Number(a.id) - Number(b.id);

/** Reports oldest first (events fire in that order). */
export const oldestFirst = (records: IDataObject[]): IDataObject[] => [...records].sort(byId);

/** What an event read by rounds keeps besides its own: where the round goes on. */
export interface RoundMemory {
	scan?: { cursor: PagingCursor };
}

/** The round's part of an event's stored state, read back. */
export const decodeRound = (stored: IDataObject): RoundMemory =>
	stored.scan ? { scan: stored.scan as RoundMemory['scan'] } : {};

type RoundRule<S, M, D> = (
	records: IDataObject[],
	memory: Partial<M>,
	settings: S,
	covered: Covered,
) => Reading<M, D>;

/** An event's `read` by rounds over every watched report: `rule` on each poll's part; the round's cursor kept as `scan`. */
export function readByRounds<S extends ReportFilter, M extends RoundMemory, D>(
	rule: RoundRule<S, M, D>,
) {
	return async function (
		this: IPollFunctions,
		settings: S,
		memory: M | undefined,
		allowance: PollAllowance,
	): Promise<Reading<M, D>> {
		const resume = memory?.scan?.cursor;
		const round = await watchRound.call(this, { project: settings.project }, resume, allowance);
		const { found, memory: next } = rule(round.records, memory ?? {}, settings, round.covered);
		const scan = round.cursor ? { scan: { cursor: round.cursor } } : {};
		return { found, memory: { ...next, ...scan } };
	};
}
