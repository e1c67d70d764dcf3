import type { IDataObject, INode, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { PAGE_SIZES, RESULT_CLASS_RANGES, type ResultClass } from '../PhpRank/api';
import type { Settings, TriggerEvent } from './events/event';
import { scanReports } from './reports';

/**
 * Fetch Test Event when no report matches: returning nothing makes n8n show its generic "No phpRank
 * data found"; this error names the filters that matched nothing, with the labels the node shows.
 */
function noSampleError(
	node: INode,
	filters: { project?: string; result?: string },
): NodeOperationError {
	const named = [
		filters.project ? `Project: ${filters.project}` : '',
		filters.result
			? `Result: ${RESULT_CLASS_RANGES[filters.result as ResultClass]?.label ?? filters.result}`
			: '',
	].filter(Boolean);
	if (named.length === 0) {
		return new NodeOperationError(
			node,
			'phpRank has no reports yet, so there is no event to show',
			{
				description:
					'Create a report in phpRank (or with the phpRank node), then fetch the test event again.',
			},
		);
	}
	return new NodeOperationError(
		node,
		`No phpRank report matches the filters (${named.join(', ')})`,
		{
			description:
				'Fetch Test Event shows the newest report that matches the filters. Change or remove the filters, or create a matching report in phpRank, then fetch again. An active workflow still fires as soon as a matching report appears.',
		},
	);
}

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`. */
function orList(words: string[]): string {
	const quoted = words.map((word) => `"${word}"`);
	return quoted.length < 2
		? quoted.join('')
		: `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/**
 * Fetch Test Event (a manual run): the event built from the newest report that matches the
 * filters, marked `sample: true` with a `note` saying what is made up. The state is left alone.
 */
export async function sampleEvent(
	this: IPollFunctions,
	event: TriggerEvent,
	settings: Settings<unknown> & { event: string },
): Promise<INodeExecutionData[][]> {
	const { project, result } = settings;
	const { records } = await scanReports.call(this, {
		filter: { project, result },
		pageSize: PAGE_SIZES[0],
		maxPages: 1,
	});
	if (records.length === 0) throw noSampleError(this.getNode(), { project, result });
	const record: IDataObject = records[0];
	const { detail, madeUp } = event.sample(settings, record);
	const built = `Sample event built from report #${String(record.id)}`;
	const note = madeUp
		? `${built}: ${madeUp} made up so you can map them; its reason can be ${orList(event.reasons?.(settings) ?? [])}`
		: `${built}, the newest report that matches the filters`;
	const json = { event: settings.event, ...event.item(settings, { record, detail }) };
	return [[{ json: { sample: true, note, ...json } }]];
}
