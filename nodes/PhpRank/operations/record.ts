import type {
	DeclarativeRestApiSettings,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';

import type { ResourceSpec } from '../transport/resource';
import { routedOptions, routedRequest } from '../transport/request';
import { doneBefore, fingerprintOf, itemFailed, recordDone, runOf, type RunState } from '../transport/retries';

/** Work a step does before its request, e.g. reading the record as it is before a re-run. */
export type BeforeSending = (ctx: IExecutePaginationFunctions, options: IHttpRequestOptions, run: RunState) => Promise<void>;

/*
 * The step of an operation that is one request on one record (Create, Get, Update, Delete): sent
 * through n8n's own pipeline, within the user's budget. A change (anything but GET) that an
 * earlier try of this node run made for the item is returned as it was, not made again.
 */
export function recordStep(spec: ResourceSpec, beforeSending?: BeforeSending) {
	return async function sendRecord(
		this: IExecutePaginationFunctions,
		routing: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const run = runOf(this);
		try {
			const { connection, options } = await routedOptions(this, spec, routing);
			const changes = options.method !== 'GET';
			const fingerprint = fingerprintOf([options.method, options.url, options.body]);
			const before = changes ? doneBefore(run, this.getItemIndex(), fingerprint) : undefined;
			if (before) return paired(this, before);

			await beforeSending?.(this, options, run);
			const { items } = await routedRequest(this, spec, connection, routing, options, run);
			if (changes) recordDone(run, this.getItemIndex(), fingerprint, items, options.method === 'POST' ? spec : undefined);
			return paired(this, items);
		} catch (error) {
			return await itemFailed(this, run, error);
		}
	};
}

/**
 * n8n pairs output to input items by itself only when their counts match; an operation run for
 * several input items may return any number of items per input, so each is paired explicitly.
 */
export function paired(ctx: IExecutePaginationFunctions, items: INodeExecutionData[]): INodeExecutionData[] {
	const item = ctx.getItemIndex();
	return items.map((output) => ({ ...output, pairedItem: { item } }));
}
