import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { RESULT_CLASS_RANGES, type ResultClass } from '../PhpRank/api';

/**
 * Fetch Test Event when no report matches: returning nothing makes n8n show its generic "No phpRank
 * data found"; this error names the filters that matched nothing, with the labels the node shows.
 */
export function noSampleError(
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
