import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { reportSpec } from '../PhpRank/descriptions/report/report.spec';
import type { ResultClass } from '../PhpRank/api';
import { readList } from '../PhpRank/transport/paging';
import type { PagingCursor } from '../PhpRank/transport/paging';

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
 * Reads `GET /reports` newest first until a report `isSeen` accepts, the end of the list, or
 * `maxPages` requests (or `stopEarly`). phpRank honours `sort_by=id` but silently ignores
 * `sort_by=generated_at`, and IDs only grow, so "newest first" is by ID, which makes the paging
 * rule exact: each report that exists while the scan runs (across polls when resumed) is
 * returned once.
 */
export async function scanReports(this: IPollFunctions, options: ScanOptions): Promise<ReportScan> {
	const { filter, pageSize, maxPages, isSeen, resume, stopEarly } = options;
	const query: IDataObject = { ...reportSpec.newestFirst };
	if (filter.project) query.project = filter.project;
	if (filter.result) query.result = filter.result;

	const scan = await readList(this, reportSpec, query, {
		perPage: pageSize,
		maxPages,
		stopAt: isSeen && ((record) => isSeen(Number(record.id))),
		resume,
		stopEarly,
	});
	return { records: scan.items, complete: scan.complete, cursor: scan.cursor };
}
