import type { INodeProperties } from 'n8n-workflow';

import { HISTORY_LENGTH } from '../../operations/createOrRerun/history/fields';
import { RUNS_KEPT } from '../../operations/createOrRerun/history/record';

/*
 * The fields of a site's history on Create or Re-Run (One Item per Site): History Length under
 * Site Options, and Report Branding.
 */

export const historyLengthOption: INodeProperties = {
	displayName: 'History Length',
	name: 'historyLength',
	type: 'number',
	typeOptions: { minValue: HISTORY_LENGTH.low, maxValue: HISTORY_LENGTH.high },
	default: 12,
	description: `How many runs <code>history</code> and the e-mail's chart show, ${HISTORY_LENGTH.low}-${HISTORY_LENGTH.high}. Each production execution (a schedule, a webhook, a trigger) keeps one record per site, the last ${RUNS_KEPT}; a manual execution shows this run last but keeps nothing (<code>history_saved</code> is false): n8n saves a workflow's static data only for production executions.`,
};

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
