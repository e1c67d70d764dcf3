import type {
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';

import { shareWithOutputSteps, sharedWithOutputSteps } from '../transport/n8nInternals';
import { phpRankRequest } from '../transport/request';
import type { ResourceSpec } from '../transport/resource';
import type { RunState } from '../transport/retries';
import { changesBetween } from './changes';

/*
 * Update with Re-Run Analysis says what changed: the report is read just before the re-run (one
 * more request), and the output step `withChanges` compares it with phpRank's answer.
 */

const PREVIOUS = 'previous';

/** Before an update: reads the report as it is, when the update re-runs its analysis. */
export function readBeforeRerun(spec: ResourceSpec) {
	return async function (ctx: IExecutePaginationFunctions, options: IHttpRequestOptions, run: RunState): Promise<void> {
		const rerun = Number((options.body as IDataObject | undefined)?.results) === 1;
		let previous: IDataObject | undefined;
		if (rerun) {
			const { body } = await phpRankRequest(ctx, spec, { method: 'GET', url: options.url }, 'record', run);
			previous = body.data as IDataObject;
		}
		shareWithOutputSteps(ctx, PREVIOUS, previous);
	};
}

/** Output step: `changes` on a re-run report, from the report as it was before. */
export async function withChanges(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const previous = sharedWithOutputSteps<IDataObject>(this, PREVIOUS);
	if (!previous) return items;
	return items.map(({ json }) => ({ json: { ...json, changes: changesBetween(previous, json) as unknown as IDataObject } }));
}
