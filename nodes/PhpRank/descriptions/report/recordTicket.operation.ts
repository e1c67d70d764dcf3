import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { historyStoreParameters } from './history';

const [store, table] = historyStoreParameters;

const properties: INodeProperties[] = [
	{
		displayName: 'Finding Key',
		name: 'findingKey',
		type: 'string',
		required: true,
		default: '',
		placeholder: "={{ $('phpRank').item.json.key }}",
		description:
			'The key of the finding (the item of Create or Re-Run, One Item per Finding Change) the tracker node opened a ticket for, e.g. "shop.example.com · title"',
	},
	{
		displayName: 'Ticket',
		name: 'ticket',
		type: 'string',
		required: true,
		default: '',
		placeholder: '={{ $json.number }}',
		description:
			'The ID of the ticket the tracker node returned, text or a number: GitHub’s issue number, Jira’s issue key, Linear’s identifier. The finding’s later items (resolved, regressed, reminder) carry it as <code>ticket</code>, and it is not opened again while it fails.',
	},
	{
		...store,
		description:
			'Where the ticket is kept: the History Store (and History Table) of the Create or Re-Run node whose finding it is',
	},
	table,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['recordTicket'] } },
	properties,
);

/** What an AI model reads about this operation when the node is a tool (see `toolDescriptionFields`). */
export const toolDescription =
	'Record the ticket an issue tracker opened for a phpRank finding (its key, e.g. "shop.example.com · title"), so the finding is not opened again and its later resolved or regressed items carry the ticket. Use it right after an issue tracker created the ticket. Sends nothing to phpRank.';
