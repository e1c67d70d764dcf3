import type {
	DeclarativeRestApiSettings,
	INodePropertyRouting,
	PostReceiveAction,
	PreSendAction,
} from 'n8n-workflow';

import { checkDeleted, checkList, checkRecord } from '../helpers/checkResponse';
import { checkListQuery } from '../helpers/preSend';
import { forTools } from '../helpers/tool';
import { fetchPages, sendRecord } from '../transport/routing';

/*
 * The routing of each kind of operation. Every request goes through a pagination hook
 * (transport/routing.ts), which sends it with n8n's `makeRoutingRequest`; the output steps below
 * run there, the answer's check first. `forTools` makes them answer AI tool calls' errors as items.
 */

type Steps = { preSend?: PreSendAction[]; postReceive?: PostReceiveAction[] };

/** `data` of phpRank's answer, one item per record (n8n's own declarative step). */
const unwrapData: PostReceiveAction = { type: 'rootProperty', properties: { property: 'data' } };

/** An operation on one report that answers with it. */
export function recordRoute(request: DeclarativeRestApiSettings.HttpRequestOptions, { preSend = [], postReceive = [] }: Steps): INodePropertyRouting {
	return forTools({
		request,
		send: { paginate: true, preSend },
		operations: { pagination: sendRecord },
		output: { postReceive: [checkRecord, unwrapData, ...postReceive] },
	});
}

/** A delete. */
export function deleteRoute({ preSend = [], postReceive = [] }: Steps): INodePropertyRouting {
	return forTools({
		request: { method: 'DELETE' },
		send: { paginate: true, preSend },
		operations: { pagination: sendRecord },
		output: { postReceive: [checkDeleted, ...postReceive] },
	});
}

/** A list operation: paged by the hook, its query checked first. */
export function listRoute(url: string, { postReceive = [] }: Steps): INodePropertyRouting {
	return forTools({
		request: { method: 'GET', url },
		send: { paginate: true, preSend: [checkListQuery] },
		operations: { pagination: fetchPages },
		output: { postReceive: [checkList, unwrapData, ...postReceive] },
	});
}
