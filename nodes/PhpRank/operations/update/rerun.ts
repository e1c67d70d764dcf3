import type {
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';

import { callerOf, forOutputSteps, phpRankRequest } from '../../transport/request';
import type { Run } from '../../transport/run';
import { changesBetween } from '../../engine/changes';

/*
 * Update with Re-Run Analysis says what changed: the report is read just before the re-run (one
 * more request), handed to the output steps with the request, and the output step `withChanges`
 * compares it with phpRank's answer. A resend after 429 hands it again.
 */

/** Before an update: reads the report as it is, when the update re-runs its analysis. */
export async function readBeforeRerun(
	ctx: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
	run: Run,
): Promise<IDataObject | undefined> {
	if (Number((options.body as IDataObject | undefined)?.results) !== 1) return undefined;
	const { body } = await phpRankRequest(
		callerOf(ctx, run),
		{ method: 'GET', url: options.url },
		'record',
	);
	return { previous: body.data as IDataObject };
}

/** Output step: `changes` on a re-run report, from the report as it was before. */
export async function withChanges(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const previous = forOutputSteps(this)?.previous as IDataObject | undefined;
	if (!previous) return items;
	return items.map(({ json }) => ({
		json: { ...json, changes: changesBetween(previous, json) as unknown as IDataObject },
	}));
}
