import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { ResultClass } from '../PhpRank/helpers/output';
import { getListPage } from '../PhpRank/transport/request';
import { isLastPage } from '../PhpRank/transport/paging';

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
	/**
	 * Every page counted the same total. When a report is deleted between two page requests the
	 * later pages move up by one, and the report at the page boundary is never read.
	 */
	steady: boolean;
}

/**
 * Reads `GET /reports` newest first, `page=1..n` on the credential's host (never `links.next`,
 * an absolute URL that may name another host), until a page reaches a report `isSeen` accepts,
 * the list ends, or `maxPages` pages were read. phpRank honours `sort_by=id` but silently ignores
 * `sort_by=generated_at`, and IDs only grow, so "newest first" is by ID.
 */
export async function scanReports(
	this: IPollFunctions,
	options: { filter: ReportFilter; pageSize: number; maxPages?: number; isSeen?: (id: number) => boolean },
): Promise<ReportScan> {
	const { filter, pageSize, maxPages = Infinity, isSeen = () => false } = options;
	const query: IDataObject = { sort_by: 'id', sort: 'desc', per_page: pageSize };
	if (filter.project) query.project = filter.project;
	if (filter.result) query.result = filter.result;

	const byId = new Map<number, IDataObject>();
	let total: unknown;
	let steady = true;
	for (let page = 1; page <= maxPages; page++) {
		const { records, meta } = await getListPage.call(this, '/reports', { ...query, page });
		if (page === 1) total = meta.total;
		else if (meta.total !== total) steady = false;

		const seenAt = records.findIndex((record) => isSeen(Number(record.id)));
		for (const record of seenAt === -1 ? records : records.slice(0, seenAt)) {
			// A report created while paging pushes the list down: its neighbour shows up twice.
			if (!byId.has(Number(record.id))) byId.set(Number(record.id), record);
		}
		if (seenAt !== -1 || isLastPage(meta, page, records.length, pageSize)) {
			return { records: [...byId.values()], complete: true, steady };
		}
	}
	return { records: [...byId.values()], complete: false, steady };
}
