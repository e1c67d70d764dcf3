import type {
	IDataObject,
	IExecuteData,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';

import { phpRankRequest } from '../transport/request';
import type { ResourceSpec } from '../transport/resource';
import type { RunState } from '../transport/retries';
import { changesBetween } from './changes';

/*
 * Update with Re-Run Analysis says what changed: the report is read just before the re-run (one
 * more request), and the output step `withChanges` compares it with phpRank's answer.
 */

/**
 * The report as it was, by node run and item, for the output step (n8n runs output steps inside
 * `makeRoutingRequest` with the item's context, and hands them only the answer). A resend after
 * 429 finds it again.
 */
const previousByRun = new WeakMap<IExecuteData, Map<number, IDataObject | undefined>>();

function shareWithOutputSteps(ctx: IExecuteSingleFunctions, previous: IDataObject | undefined): void {
	const key = ctx.getExecuteData();
	const byItem = previousByRun.get(key) ?? new Map<number, IDataObject | undefined>();
	previousByRun.set(key, byItem);
	byItem.set(ctx.getItemIndex(), previous);
}

/** Before an update: reads the report as it is, when the update re-runs its analysis. */
export function readBeforeRerun(spec: ResourceSpec) {
	return async function (ctx: IExecutePaginationFunctions, options: IHttpRequestOptions, run: RunState): Promise<void> {
		const rerun = Number((options.body as IDataObject | undefined)?.results) === 1;
		let previous: IDataObject | undefined;
		if (rerun) {
			const { body } = await phpRankRequest(ctx, spec, { method: 'GET', url: options.url }, 'record', run);
			previous = body.data as IDataObject;
		}
		shareWithOutputSteps(ctx, previous);
	};
}

/** Output step: `changes` on a re-run report, from the report as it was before. */
export async function withChanges(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const previous = previousByRun.get(this.getExecuteData())?.get(this.getItemIndex());
	if (!previous) return items;
	return items.map(({ json }) => ({ json: { ...json, changes: changesBetween(previous, json) as unknown as IDataObject } }));
}
