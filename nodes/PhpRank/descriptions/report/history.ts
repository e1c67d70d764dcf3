import type { INodeProperties } from 'n8n-workflow';

import { boundedField } from '../../bounds';

import { HISTORY_LENGTH } from '../../history/historyFields';
import { FIRST_N8N_WITH_TABLE_API } from '../../history/n8nApi';
import { RUNS_KEPT } from '../../history/model';

/*
 * The fields of a site's history on Create or Re-Run (One Item per Site): History Length under
 * Site Options, Report Branding, History Store and History Table.
 */

export const historyLengthOption = boundedField(
	'historyLength',
	`How many runs <code>history</code> and the e-mail's chart show, ${HISTORY_LENGTH.low}-${HISTORY_LENGTH.high}. Each production execution (a schedule, a webhook, a trigger) keeps one record per site where History Store says (This Workflow: the last ${RUNS_KEPT}; Data Table: every run); a manual execution shows this run last but keeps nothing (<code>history_saved</code> is false).`,
);

export const emailHtmlOption: INodeProperties = {
	displayName: 'E-Mail HTML',
	name: 'emailHtml',
	type: 'boolean',
	default: false,
	description:
		'Whether to add <code>summary_html</code>: the site’s report as e-mail-safe HTML (with the history chart and Report Branding), for the HTML field of Send Email or for Convert to File. Off, the item keeps <code>summary_text</code> for chat and its row in the Table view stays short.',
};

export const reportBrandingParameter: INodeProperties = {
	displayName: 'Report Branding',
	name: 'reportBranding',
	type: 'collection',
	placeholder: 'Add Branding',
	default: {},
	description:
		'Your agency on the site’s e-mail (summary_html: turn on E-Mail HTML under Site Options)',
	options: [
		{
			displayName: 'Accent Color',
			name: 'accentColor',
			type: 'color',
			default: '#1a73e8',
			description: 'The colour of the header line and headings, written #rrggbb',
		},
		{
			displayName: 'Agency Name',
			name: 'agencyName',
			type: 'string',
			default: '',
			placeholder: 'Acme SEO',
		},
		{
			displayName: 'Intro Text',
			name: 'introText',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'A few words above the figures, e.g. to the client',
		},
		{
			displayName: 'Logo URL',
			name: 'logoUrl',
			type: 'string',
			default: '',
			placeholder: 'https://agency.example.com/logo.png',
			description: 'The web address (http or https) of your logo, shown 32 pixels high',
		},
	],
};

/** History Store and History Table (One Item per Site): where the site's runs are kept. */
export const historyStoreParameters: INodeProperties[] = [
	{
		displayName: 'History Store',
		name: 'historyStore',
		type: 'options',
		options: [
			{
				name: 'This Workflow',
				value: 'workflow',
				description:
					'The workflow’s static data: nothing to set up. Kept per node name (a renamed node or a copied workflow starts anew). In queue mode n8n 2.40 and later start each worker’s run without it: history_saved then says true, yet the next run does not see this one.',
			},
			{
				name: 'Data Table',
				value: 'dataTable',
				description: `A row per site and production run in a data table of this n8n, through its public API (n8n ${FIRST_N8N_WITH_TABLE_API} or later): kept by every queue-mode worker, renamed node and copied workflow, and shown in Data Tables`,
			},
		],
		default: 'workflow',
		description: 'Where the site’s history (and its issues’ ages) is kept between runs',
	},
	{
		displayName: 'History Table',
		name: 'historyTable',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description:
			'The data table that keeps one row per site and run. By Name: the table is created with its columns on the first production run when this n8n has none of that name.',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchHistoryTables', searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 4pXy9HvwYfGlqVEb' },
			{ displayName: 'By Name', name: 'name', type: 'string', placeholder: 'e.g. phpRank history' },
		],
		displayOptions: { show: { historyStore: ['dataTable'] } },
	},
];
