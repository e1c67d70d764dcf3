import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { BOUNDS, boundedField } from '../../bounds';
import { MAX_COMPETITORS } from '../../engine/comparison';
import { optionsCollection } from '../common';
import { searchConsoleDataParameter } from '../site';
import { historyStoreParameters, reportBrandingParameter } from './history';

const [store, table] = historyStoreParameters;

const { reuseHours, tieWithin } = BOUNDS;

const properties: INodeProperties[] = [
	{
		displayName:
			'Analyses your page and each competitor’s as Create or Re-Run does (never a second report of a URL; a report analysed within Reuse Recent Analysis is used as it is) and lines them up check by check: what they pass and you fail comes first.',
		name: 'compareNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Your URL',
		name: 'yourUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.com/pricing',
		description:
			'Your page (or your client’s): example.com/pricing (https:// is added) or a full http:// or https:// address',
	},
	{
		displayName: 'Competitor URLs',
		name: 'competitors',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Competitor',
		default: {},
		description: `The competitors’ pages, 1 to ${MAX_COMPETITORS}. An expression in one entry may give several, separated by commas, or a list.`,
		options: [
			{
				displayName: 'Competitor',
				name: 'competitor',
				values: [
					{
						displayName: 'URL',
						name: 'url',
						type: 'string',
						default: '',
						placeholder: 'https://competitor.example/pricing',
						description:
							'A competitor’s page: competitor.example/pricing (https:// is added) or a full http:// or https:// address',
					},
				],
			},
		],
	},
	boundedField(
		'reuseHours',
		`Use a page’s newest report as it is, with no new analysis, when it was analysed less than this many hours ago (${reuseHours.low}: always analyse; at most ${reuseHours.high}). Each site's <code>action</code> says <code>reused</code>, <code>rerun</code> or <code>created</code>.`,
	),
	boundedField(
		'tieWithin',
		`Scores at most this many points apart count as a tie (${tieWithin.low}-${tieWithin.high}): with ${tieWithin.default}, a gap of exactly ${tieWithin.default} is a tie and ${tieWithin.default}.1 is not. Analyses are noisy by a few points.`,
	),
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			'Whether to return short text columns for tables ("title (high): you fail, 2 of 3 pass"; checks only where the sites differ) instead of lists with every check and each site’s link',
	},
	{
		...searchConsoleDataParameter,
		description:
			'Optional. The Search Analytics answer of Google Search Console for your site (searchanalytics.query, dimensions page) from an earlier node: the item and each check your competitors lead on then say your page’s clicks and impressions, and the first line says them. No phpRank request more.',
	},
	{
		...store,
		options: [
			{
				name: 'None',
				value: 'none',
				description: 'Each comparison on its own: no gap_change or overtaken_by',
			},
			{
				name: 'Data Table',
				value: 'dataTable',
				description:
					'A row per compared page and production run in a data table of this n8n (the table Create or Re-Run keeps sites in may be the same: a page is a site there, written with a slash after a bare host), so each competitor says gap_change since the previous comparison, and overtaken_by lists those now ahead that were not',
			},
		],
		default: 'none',
		description: 'Where each comparison’s scores are kept, to say what changed since the last one',
	},
	{
		...table,
		description:
			'The data table that keeps one row per compared page and production run. By Name: created with its columns on the first production run when this n8n has none of that name.',
	},
	{
		...reportBrandingParameter,
		description:
			'Your agency on the comparison’s e-mail (summary_html: turn on E-Mail HTML under Options)',
	},
	optionsCollection([
		{
			displayName: 'E-Mail HTML',
			name: 'emailHtml',
			type: 'boolean',
			default: false,
			description:
				'Whether to add <code>summary_html</code>: the comparison as e-mail-safe HTML (with Report Branding), for the HTML field of Send Email',
		},
		{
			displayName: 'Public URLs Only',
			name: 'publicUrlsOnly',
			type: 'boolean',
			default: false,
			description:
				'Whether to refuse, before anything is sent, a URL that is not a public web page: longer than 2,000 characters, or pointing to localhost or a private, loopback or link-local address. Turn it on when the URLs come from the public, e.g. a form.',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['compare'] } },
	properties,
);

/** What an AI model reads about this operation when the node is a tool (see `toolDescriptionFields`). */
export const toolDescription = `Compare the SEO of one web page with competitors' pages (1 to ${MAX_COMPETITORS}) with phpRank: each page is audited (or its report from the last ${reuseHours.default} hours reused) and the answer is a short text: the most important checks the competitors pass and the page fails (what to fix first), each site's score from 0 to 100 with its gap to the page (a tie within a few points), the best competitor, and the checks the page leads on. Use it when asked how a site does against its competitors or what they do better.`;
