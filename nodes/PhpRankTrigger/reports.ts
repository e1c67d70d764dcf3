import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { ResultClass } from '../PhpRank/helpers/output';
import { readList } from '../PhpRank/helpers/lists';

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
	/** A complete scan read every report that existed while it ran (transport/paging.ts). */
	steady: boolean;
}

/**
 * Reads `GET /reports` newest first until a report `isSeen` accepts, the end of the list, or
 * `maxPages` requests. phpRank honours `sort_by=id` but silently ignores `sort_by=generated_at`,
 * and IDs only grow, so "newest first" is by ID, which makes the paging rule exact.
 */
export async function scanReports(
	this: IPollFunctions,
	options: { filter: ReportFilter; pageSize: number; maxPages?: number; isSeen?: (id: number) => boolean },
): Promise<ReportScan> {
	const { filter, pageSize, maxPages, isSeen } = options;
	const query: IDataObject = { sort_by: 'id', sort: 'desc' };
	if (filter.project) query.project = filter.project;
	if (filter.result) query.result = filter.result;

	const scan = await readList(this, '/reports', query, {
		perPage: pageSize,
		keyOf: (record) => Number(record.id),
		newestFirst: true,
		maxPages,
		stopAt: isSeen && ((record) => isSeen(Number(record.id))),
	});
	return { records: scan.items, complete: scan.complete, steady: scan.steady };
}
