import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { describeValue } from '../bounds';
import { fail } from '../input';
import { type ColumnType, KEY_SEPARATOR as SEPARATOR } from './model';
import { isProduction, type Ticket, type TicketKeeping } from './stores';

/*
 * Finding tickets: the ticket a tracker node opened for a finding, handed back by Report → Record
 * Finding Ticket and carried by the finding's later items, kept in the home of the site's history.
 * This Workflow: the workflow's static data, the workflow-wide part (the recording node is not the
 * one that runs the audit), one object per site: a node rename loses nothing, and n8n saves it
 * after a production execution only. Data Table: a row per recorded ticket (`ticketRow`), read
 * with the site's runs (`ticketsOfRows`).
 */

export type { Ticket };

const ticketsKey = (site: string) => `tickets ${site}`;

/** A finding's key, `site · check` (Ticket Per → Page Group: `check` is `group · check`, Page: `/path · check`; the one place it is written). */
export const findingKey = (site: string, check: string) => `${site}${SEPARATOR}${check}`;
/** The site a finding's key names (the one place it is read). */
const siteOfKey = (key: string) => key.split(SEPARATOR)[0].trim();
/** The checks of a site's findings that have a ticket. */
export const ticketedChecks = (tickets: ReadonlyMap<string, Ticket>, site: string) =>
	[...tickets.keys()]
		.filter((key) => siteOfKey(key) === site)
		.map((key) => key.slice(findingKey(site, '').length));

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
			'Set Finding Key to the key of a One Item per Finding Change item, e.g. {{ $(\'phpRank\').item.json.key }}: "shop.example.com · title" (Ticket Per → Page Group: "shop.example.com · Products · title"; Page: "shop.example.com · /products/a · title").',
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

/** This Workflow: a finding's ticket recorded in the static data (a production execution only). */
export const workflowTickets: TicketKeeping = {
	async record(ctx, _run, key, ticket) {
		if (!isProduction(ctx)) return false;
		const site = siteOfKey(key);
		const tickets = Object.fromEntries(recordedTickets(ctx, site));
		// A new object at the top level: n8n marks static data changed only when such a key is set.
		staticData(ctx)[ticketsKey(site)] = { ...tickets, [key]: ticket };
		return true;
	},
};

/*
 * Data Table: a ticket is a row of its own in the history table, its `finding` and `ticket` set and
 * no `run_date` (so no reader of runs takes it for one). Rows, not a column of the run's rows: a
 * ticket is recorded between runs, by another node, often by two executions at once; each
 * recording inserts its own row, so none overwrites another, and the newest row of a finding wins.
 */

/** The columns of a ticket row, added to a history table when its first ticket is recorded. */
export const TICKET_COLUMNS: ReadonlyArray<{ name: string; type: ColumnType }> = [
	{ name: 'finding', type: 'string' },
	{ name: 'ticket', type: 'string' },
];

/**
 * A finding's ticket as its row; a number is written as its digits and read back as a number. No
 * execution ID: a run's row is upserted on site and execution ID, and a run of the site later in
 * the execution that recorded the ticket would overwrite it.
 */
export const ticketRow = (key: string, ticket: Ticket, workflow: string) => ({
	site: siteOfKey(key),
	finding: key,
	ticket: String(ticket),
	execution_id: '',
	workflow_id: workflow,
});

const ticketOfCell = (cell: string): Ticket =>
	/^-?\d+$/.test(cell) && String(Number(cell)) === cell ? Number(cell) : cell;

/** The site's tickets among the history table's rows, by finding key: the newest row of each wins. */
export function ticketsOfRows(
	rows: ReadonlyArray<Record<string, unknown>>,
	site: string,
): Map<string, Ticket> {
	const ticketRows = rows
		.filter((row) => row.site === site && typeof row.finding === 'string' && row.finding !== '')
		.filter((row) => typeof row.ticket === 'string' && row.ticket.trim() !== '')
		.sort((a, b) => Number(a.id) - Number(b.id));
	return new Map(ticketRows.map((row) => [String(row.finding), ticketOfCell(String(row.ticket))]));
}
