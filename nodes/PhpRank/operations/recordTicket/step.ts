import type {
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';

import { ticketInput } from '../../history/tickets';
import { checkHistoryHome, historyHomeOf } from '../../history/homes';
import type { ResourceSpec } from '../../transport/resource';
import { runOf } from '../../transport/run';
import { operationRouting, paired } from '../../engine/routes';

/*
 * Report → Record Finding Ticket: the ticket a tracker node opened for a finding of One Item per
 * Finding Change, kept in the History Store's home for the finding's later items
 * (history/tickets.ts). No phpRank request.
 */

async function checkTicket(
	this: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	ticketInput(this);
	checkHistoryHome(this, 'recordTicket');
	return options;
}

async function recordFindingTicket(
	this: IExecutePaginationFunctions,
): Promise<INodeExecutionData[]> {
	const { key, ticket } = ticketInput(this);
	const home = historyHomeOf(this, 'recordTicket')!;
	const recorded = await home.tickets.record(this, runOf(this), key, ticket);
	return paired(this, [{ json: { key, ticket, ticket_recorded: recorded } }]);
}

/** The routing of Record Finding Ticket: Finding Key and Ticket checked, then recorded; nothing sent. */
export function recordTicketRoute(spec: ResourceSpec): INodePropertyRouting {
	return operationRouting(spec, {
		request: { method: 'GET', url: spec.path },
		send: { paginate: true, preSend: [checkTicket] },
		operations: { pagination: recordFindingTicket },
	});
}
