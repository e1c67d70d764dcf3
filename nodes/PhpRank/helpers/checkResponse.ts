import type {
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	PostReceiveAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type Expect, inspect, pendingExchange } from '../transport/send';

/**
 * The first output step of every operation: phpRank's answer checked (status, rate-limit
 * headers, shape) before any other step reads it. Errors and their texts are in
 * transport/errors.ts; what counts as phpRank's shape is in `inspect`.
 */
function checkResponse(expect: Expect): PostReceiveAction {
	const step = async function (
		this: IExecuteSingleFunctions,
		_items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const current = pendingExchange(this);
		if (!current) {
			throw new NodeOperationError(this.getNode(), 'A phpRank request was sent outside the node’s request path', {
				description: 'This is a bug in the phpRank node: please report it.',
			});
		}
		return [{ json: inspect(current, response, expect) }];
	};
	Object.defineProperty(step, 'name', { value: `check${expect.charAt(0).toUpperCase()}${expect.slice(1)}` });
	return step;
}

/** A single report: `{ "data": { "id": …, … } }`. */
export const checkRecord = checkResponse('record');
/** A page of a list: `{ "data": [ … ], "meta": { … } }`. */
export const checkList = checkResponse('list');
/** A delete: `{ "deleted": true, … }`, or an empty answer. */
export const checkDeleted = checkResponse('deleted');
