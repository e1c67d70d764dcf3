import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { describeValue } from '../bounds';
import { fail } from '../input';
import { isProduction } from './stores';

/*
 * Finding tickets: the ticket a tracker node opened for a finding, handed back by Report → Record
 * Finding Ticket and carried by the finding's later items. Kept in the workflow's static data, the
 * workflow-wide part (the recording node is not the one that runs the audit), one object per site:
 * a node rename loses nothing, and n8n saves it after a production execution only.
 */

export type Ticket = string | number;

const ticketsKey = (site: string) => `tickets ${site}`;
const SEPARATOR = ' · ';

/** A finding's key, `site · check` (the one place it is written). */
export const findingKey = (site: string, check: string) => `${site}${SEPARATOR}${check}`;
/** The site a finding's key names (the one place it is read). */
const siteOfKey = (key: string) => key.split(SEPARATOR)[0].trim();

const staticData = (ctx: IExecuteSingleFunctions) =>
	ctx.getWorkflowStaticData('global') as IDataObject;

/** The tickets recorded for a site's findings, by finding key. */
export function recordedTickets(ctx: IExecuteSingleFunctions, site: string): Map<string, Ticket> {
	const stored = staticData(ctx)[ticketsKey(site)];
	if (!stored || typeof stored !== 'object') return new Map();
	return new Map(
		Object.entries(stored as IDataObject).filter(
			(entry): entry is [string, Ticket] =>
				typeof entry[1] === 'string' || typeof entry[1] === 'number',
		),
	);
}

/** Finding Key and Ticket as set: a key of One Item per Finding Change, and text or a number. */
export function ticketInput(ctx: IExecuteSingleFunctions): { key: string; ticket: Ticket } {
	const key = ctx.getNodeParameter('findingKey', '') as unknown;
	const site = typeof key === 'string' ? siteOfKey(key) : '';
	if (typeof key !== 'string' || !site || !key.includes(SEPARATOR, site.length))
		fail(
			ctx,
			`Finding Key must be a finding's key, not ${describeValue(key)}`,
			'Set Finding Key to the key of a One Item per Finding Change item, e.g. {{ $(\'phpRank\').item.json.key }}: "shop.example.com · title".',
		);
	const ticket = ctx.getNodeParameter('ticket', '') as unknown;
	const text = typeof ticket === 'string' && ticket.trim() !== '';
	if (!text && !(typeof ticket === 'number' && Number.isFinite(ticket)))
		fail(
			ctx,
			`Ticket must be text or a number, not ${describeValue(ticket)}`,
			'Set Ticket to the ID your tracker node returned, e.g. {{ $json.number }} after GitHub, {{ $json.key }} after Jira, {{ $json.identifier }} after Linear.',
		);
	return { key, ticket: text ? (ticket as string).trim() : (ticket as number) };
}

/** Records a finding's ticket (a production execution only): whether it was recorded. */
export function recordTicket(ctx: IExecuteSingleFunctions, key: string, ticket: Ticket): boolean {
	if (!isProduction(ctx)) return false;
	const data = staticData(ctx);
	const site = siteOfKey(key);
	const tickets = Object.fromEntries(recordedTickets(ctx, site));
	// A new object at the top level: n8n marks static data changed only when such a key is set.
	data[ticketsKey(site)] = { ...tickets, [key]: ticket };
	return true;
}
