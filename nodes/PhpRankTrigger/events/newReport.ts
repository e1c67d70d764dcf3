import type { IDataObject } from 'n8n-workflow';

import { MAX_PAGE_SIZE, PAGE_SIZES } from '../../PhpRank/api';
import { shapeReport } from '../../PhpRank/engine/reportItem';
import type { PagingCursor } from '../../PhpRank/transport/paging';
import { oldestFirst, scanReports } from '../reports';
import type { TriggerEvent } from './event';

/** New Report keeps the highest report ID seen (IDs only grow) and a scan spread over polls. */
interface Memory {
	lastId: number;
	/** `top`: the highest ID the scan returned; it becomes `lastId` when the scan ends. */
	scan?: { cursor: PagingCursor; top?: number };
}

/** Reports oldest first, and the highest ID among them and `lastId`. */
function newReports(records: IDataObject[], lastId: number) {
	const fresh = oldestFirst(records);
	return { fresh, lastId: fresh.reduce((max, record) => Math.max(max, Number(record.id)), lastId) };
}

const asFound = (records: IDataObject[]) => records.map((record) => ({ record, detail: {} }));

export const newReport: TriggerEvent<object, Memory, object> = {
	value: 'newReport',
	name: 'New Report',
	description: 'A report was created since the last poll',
	subtitle: 'New report',
	fields: [],
	listByResult: true,
	parameters: () => ({}),
	decode: (stored) => ({
		lastId: typeof stored.lastId === 'number' ? stored.lastId : 0,
		...(stored.scan ? { scan: stored.scan as Memory['scan'] } : {}),
	}),
	encode: ({ lastId, scan }) => ({ lastId, ...(scan ? { scan } : {}) }),

	/** One small page while few are new; a backlog is read by 100s down to the first report seen. */
	async read({ project, result }, memory, allowance) {
		const filter = { project, result };
		const lastId = memory?.lastId ?? 0;
		const isSeen = (id: number) => id <= lastId;
		let requests = allowance.requests;
		if (!memory?.scan) {
			const peek = await scanReports.call(this, {
				filter,
				pageSize: PAGE_SIZES[0],
				maxPages: 1,
				isSeen,
			});
			const found = newReports(peek.records, lastId);
			if (!memory || peek.complete)
				return { found: asFound(found.fresh), memory: { lastId: found.lastId } };
			requests--;
		}
		const scan = await scanReports.call(this, {
			filter,
			pageSize: MAX_PAGE_SIZE,
			maxPages: requests,
			isSeen,
			resume: memory.scan?.cursor,
			stopEarly: allowance.stopEarly,
		});
		const found = newReports(scan.records, memory.scan?.top ?? lastId);
		return {
			found: asFound(found.fresh),
			memory: scan.complete
				? { lastId: found.lastId }
				: { lastId, scan: { cursor: scan.cursor, top: found.lastId } },
		};
	},

	item: (settings, { record }) => shapeReport(record, settings),
	sample: () => ({ detail: {} }),
};
