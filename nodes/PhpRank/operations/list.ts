import type { DeclarativeRestApiSettings, IDataObject, IExecutePaginationFunctions, INodeExecutionData } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../api';
import { type ListPage, pageSizeFor, readListPages } from '../transport/paging';
import type { ResourceSpec } from '../transport/resource';
import { routedOptions, routedRequest } from '../transport/request';
import { itemFailed, runOf } from '../transport/retries';

/*
 * The step of a list operation (Get Many): pages `page=1..n` on the credential's own host (never
 * `links.next`, an absolute URL that could carry the key elsewhere) by the shared paging rule
 * (transport/paging.ts), each page sent through n8n's own pipeline with the operation's output
 * steps, with the filters and sort of the first request on every page, until the list or the
 * limit ends. `keepOf` gives the records a filter of the node keeps (one phpRank cannot apply),
 * or undefined: the limit then counts those only.
 */
export type KeepOf = (ctx: IExecutePaginationFunctions) => ((record: IDataObject) => boolean) | undefined;

export function listStep(spec: ResourceSpec, keepOf?: KeepOf) {
	return async function fetchPages(this: IExecutePaginationFunctions, routing: DeclarativeRestApiSettings.ResultOptions): Promise<INodeExecutionData[]> {
		const run = runOf(this);
		try {
			const { connection, options } = await routedOptions(this, spec, routing);
			const returnAll = this.getNodeParameter('returnAll', false) as boolean;
			const limit = returnAll ? Infinity : (this.getNodeParameter('limit', 50) as number);
			const keep = keepOf?.(this);
			// A filter of the node's own may skip many records: the fewest requests are the largest pages.
			const perPage = Number(options.qs?.per_page ?? (keep ? MAX_PAGE_SIZE : pageSizeFor(limit)));
			const item = this.getItemIndex();
			// A list sorted newest first (reports by default) makes the paging rule exact on a moving list.
			const newestFirst = spec.newestFirst?.(options.qs ?? {}) ?? false;

			/*
			 * Reading ahead: once a page is answered (before n8n runs its output steps), the next one is
			 * asked for, so phpRank prepares it while this one is shaped. Its request comes at the same
			 * point of the list's life as it would after the shaping; when the paging rule asks for
			 * another page instead (the list moved), it is dropped.
			 */
			let ahead: { page: number; result: Promise<ListPage> } | undefined;
			let asked = 0;
			const dropped: Array<Promise<unknown>> = [];
			const request = (page: number): Promise<ListPage> => {
				const pageOptions = { ...options, qs: { ...options.qs, per_page: perPage, page } };
				const readAhead = (meta: IDataObject) => {
					const more =
						page === asked && Number(meta.current_page ?? page) === page && page < Number(meta.last_page) && page * Number(meta.per_page ?? perPage) < limit;
					if (!more) return;
					const result = request(page + 1);
					result.catch(() => undefined);
					ahead = { page: page + 1, result };
				};
				return routedRequest(this, spec, connection, routing, pageOptions, run, readAhead)
					.then(({ items: pageItems, meta }) => ({ records: pageItems.map(({ json }) => json), meta: meta ?? {} }));
			};

			const { items } = await readListPages<INodeExecutionData>(
				this,
				async (page) => {
					asked = page;
					if (ahead && ahead.page !== page) dropped.push(ahead.result);
					const next = ahead?.page === page ? ahead.result : request(page);
					ahead = undefined;
					return await next;
				},
				{
					perPage,
					limit,
					keep,
					newestFirst,
					keyOf: (record) => record[spec.key] as string | number,
					// Paired as they arrive: one object per result, not a copy per step.
					map: (records) => records.map((json) => ({ json, pairedItem: { item } })),
				},
			).finally(async () => {
				// Nothing of this run may still be on its way when the node has finished.
				if (ahead) dropped.push(ahead.result);
				await Promise.allSettled(dropped);
			});
			return items;
		} catch (error) {
			return await itemFailed(this, run, error);
		}
	};
}
