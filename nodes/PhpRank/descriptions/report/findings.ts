import type { INodeProperties } from 'n8n-workflow';

import { boundedField } from '../../bounds';

/** Output → One Item per Finding Change: its option and its settings (the flood guard, reminders). */
export const findingsOutputOption = {
	name: 'One Item per Finding Change',
	value: 'findings',
	description:
		'After each production run, one item per finding (a check failing on a site, or with Ticket Per on a page group or a page) that was opened, resolved or regressed, with a ready ticket title and Markdown body: to open, close and reopen tickets in Jira, Linear or GitHub Issues. Unchanged findings give no item; a manual run shows them and records nothing.',
};

export const findingOptionsParameter: INodeProperties = {
	displayName: 'Finding Options',
	name: 'findingOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	displayOptions: { show: { output: ['findings'] } },
	options: [
		boundedField(
			'maxNewTickets',
			'The flood guard: at most this many opened and regressed findings a run, high importance first; the rest come in one item (event "held") listing their keys, so a site’s first run never floods a tracker',
		),
		boundedField(
			'remindAfterDays',
			'A "reminder" item each time a finding has been open another this many days. 0: no reminders.',
		),
		{
			displayName: 'Ticket Per',
			name: 'ticketPer',
			type: 'options',
			default: 'site',
			options: [
				{
					name: 'Site',
					value: 'site',
					description: 'A finding per check failing on the site: key "shop.example.com · title"',
				},
				{
					name: 'Page Group',
					value: 'group',
					description:
						'A finding per check failing in a page group (one fix in a shared template): key "shop.example.com · Products · title". Needs Page Groups.',
				},
				{
					name: 'Page',
					value: 'page',
					description:
						'A finding per check failing on a page, named by its path: key "shop.example.com · /products/a · title". With Data Table, the table gets a failing_pages column.',
				},
			],
			description:
				'What one finding, and so one ticket, is. Changing it starts new findings: the old ones’ tickets get no more items.',
		},
		{
			displayName: 'Repeat Until Ticket Recorded',
			name: 'untilTicketRecorded',
			type: 'boolean',
			default: true,
			description:
				'Whether a failing finding comes as "opened" at each run until Report → Record Finding Ticket records its ticket, so none is lost to the flood guard or a failed tracker call, and "resolved" comes only for a finding with a ticket. Off: "opened" only at the run it starts failing (e.g. for a chat message).',
		},
	],
};
