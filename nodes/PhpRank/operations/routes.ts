import type {
	DeclarativeRestApiSettings,
	INodePropertyRouting,
	PostReceiveAction,
	PreSendAction,
} from 'n8n-workflow';

import { answerCheck } from '../transport/request';
import type { ResourceSpec } from '../transport/resource';
import { checkListQuery } from './input';
import { type KeepOf, listStep } from './list';
import { type BeforeSending, recordStep } from './record';
import { forTools } from './tool';

/*
 * The routing of each kind of operation, for the descriptions. Every request goes through a step
 * in `routing.operations.pagination` (operations/record.ts, operations/list.ts, or an operation of
 * its own), which sends it with n8n's `makeRoutingRequest`; the output steps below run there, the
 * answer's check first. `forTools` makes them answer AI tool calls' errors as items.
 */

type Steps = { preSend?: PreSendAction[]; postReceive?: PostReceiveAction[] };

/** `data` of phpRank's answer, one item per record (n8n's own declarative step). */
const unwrapData: PostReceiveAction = { type: 'rootProperty', properties: { property: 'data' } };

/** An operation on one record that answers with it. */
export function recordRoute(
	spec: ResourceSpec,
	request: DeclarativeRestApiSettings.HttpRequestOptions,
	{ preSend = [], postReceive = [] }: Steps,
	beforeSending?: BeforeSending,
): INodePropertyRouting {
	return forTools({
		request,
		send: { paginate: true, preSend },
		operations: { pagination: recordStep(spec, beforeSending) },
		output: { postReceive: [answerCheck('record'), unwrapData, ...postReceive] },
	});
}

/** A delete. */
export function deleteRoute(spec: ResourceSpec, { preSend = [], postReceive = [] }: Steps): INodePropertyRouting {
	return forTools({
		request: { method: 'DELETE' },
		send: { paginate: true, preSend },
		operations: { pagination: recordStep(spec) },
		output: { postReceive: [answerCheck('deleted'), ...postReceive] },
	});
}

/** A list operation: paged by the list step, its query checked first; `keep`: see operations/list.ts. */
export function listRoute(spec: ResourceSpec, { preSend = [], postReceive = [], keep }: Steps & { keep?: KeepOf }): INodePropertyRouting {
	return forTools({
		request: { method: 'GET', url: spec.path },
		send: { paginate: true, preSend: [checkListQuery, ...preSend] },
		operations: { pagination: listStep(spec, keep) },
		output: { postReceive: [answerCheck('list'), unwrapData, ...postReceive] },
	});
}
