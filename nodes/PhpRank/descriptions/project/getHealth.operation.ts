import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { RESULT_CLASSES_TEXT } from '../../api';
import { BOUNDS, boundedField } from '../../bounds';
import { MAX_COMPETITORS } from '../../engine/comparison';
import { projectLocator } from '../common';
import {
	emailHtmlOption,
	historyStoreParameters,
	reportBrandingParameter,
} from '../report/history';
import { defaultBudgetParameter, pageGroupsParameter } from '../pageGroups';
import { searchConsoleDataParameter, siteOptions, siteSimplifyParameter } from '../site';

const { auditedWithin, staleAfter, tieWithin } = BOUNDS;
const digestOnly = { displayOptions: { show: { output: ['digest'] } } };

/** One Digest's Site Options: Audited Within, E-Mail HTML and Stale After. */
const digestSiteOptions: INodeProperties = {
	...siteOptions(false, digestOnly),
	options: [
		boundedField(
			'auditedWithin',
			`With History Store → Data Table: a site with no run kept in the history table for this many days is not audited (<code>audited</code>, <code>not_audited</code> with its last run, <code>not_audited_sites</code>), and the message names it first. ${auditedWithin.low}-${auditedWithin.high}. The default suits a weekly audit.`,
		),
		{
			...emailHtmlOption,
			description:
				'Whether to add <code>summary_html</code>: the digest as e-mail-safe HTML (a table of one row per site, with Report Branding), for the HTML field of Send Email. Off, the item keeps <code>summary_text</code> for chat.',
		},
		boundedField(
			'staleAfter',
			`A site with no analysis for this many days or more is stale (<code>stale</code>, <code>stale_sites</code>), ${staleAfter.low}-${staleAfter.high}. The default suits a weekly audit: one missed run makes the site stale.`,
			{ displayName: 'Stale After (Days)' },
		),
	],
};

const [store, table] = historyStoreParameters;

/** One Digest's History Store: None, or the data table Create or Re-Run writes each site's runs to. */
const digestStore: INodeProperties[] = [
	{
		...store,
		options: [
			{
				name: 'None',
				value: 'none',
				description:
					'No changes or issue ages: the digest says where to turn them on (history_note)',
			},
			{
				name: 'Data Table',
				value: 'dataTable',
				description:
					'The data table Create or Re-Run (One Item per Site, History Store → Data Table) keeps each site’s runs in: read once for every site, never written',
			},
		],
		default: 'none',
		description:
			'Where each site’s runs are kept, for its change over the last four runs and the last 30 days and the age of its oldest open issue',
		...digestOnly,
	},
	{
		...table,
		description:
			'The data table Create or Re-Run writes each site’s runs to (History Store → Data Table there). The digest only reads it.',
		displayOptions: { show: { output: ['digest'], historyStore: ['dataTable'] } },
	},
];

const properties: INodeProperties[] = [
	{
		displayName: 'All Projects',
		name: 'allProjects',
		type: 'boolean',
		default: false,
		description: 'Whether to get the health of every project (one item each) instead of one',
	},
	projectLocator({ required: true, displayOptions: { show: { allProjects: [false] } } }),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: 'One Item per Project',
				value: 'projects',
				description: 'Each project’s health, with its lists and a message to send',
			},
			{
				name: 'One Digest',
				value: 'digest',
				description:
					'One item for the whole account (All Projects): every site worst first, with its changes, oldest open issue and whether it is stale, the totals and one message to send',
			},
		],
		default: 'projects',
		description: 'Whether to return each project, or one digest of every project',
	},
	{
		displayName: 'Compare With',
		name: 'compareWith',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Project',
		default: {},
		description: `Other projects (e.g. competitors’ sites you audit) beside this one, up to ${MAX_COMPETITORS}: health, average score, pages and each failing check’s share of pages side by side, from their report lists alone (one list read each, no analysis)`,
		displayOptions: { show: { allProjects: [false], output: ['projects'] } },
		options: [
			{
				displayName: 'Project',
				name: 'site',
				values: [projectLocator({ description: 'A project to put beside the chosen one' })],
			},
		],
	},
	siteSimplifyParameter,
	{
		...searchConsoleDataParameter,
		description: `${searchConsoleDataParameter.description} One Digest: the rows of every site in one (e.g. each site's answer as an item), each site's pages matched by URL.`,
	},
	pageGroupsParameter,
	defaultBudgetParameter,
	{
		...siteOptions(false, { displayOptions: { show: { output: ['projects'] } } }),
		// Sorted as n8n lists options.
		options: [
			boundedField(
				'tieWithin',
				`With Compare With: average scores at most this many points apart count as a tie (${tieWithin.low}-${tieWithin.high}; the edge is a tie)`,
			),
			...(siteOptions(false).options as INodeProperties[]),
		],
	},
	digestSiteOptions,
	...digestStore,
	{
		...reportBrandingParameter,
		description:
			'Your agency on the digest’s e-mail (summary_html: turn on E-Mail HTML under Site Options)',
		...digestOnly,
	},
	{
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: `Which of the user's client sites need attention this week, from phpRank: one short message ranking every site (project, e.g. example.com) worst first, by health score (share of pages without a failed high-importance check), then average score from 0 to 100 (${RESULT_CLASSES_TEXT}). Each line gives the site's change over the last four runs and the last 30 days, its open high-importance issues, its oldest open issue and for how many days, whether it is stale (not analysed lately), its page groups over budget when budgets are set, and its link; the first line the totals. Use it when asked which sites or clients need attention, got worse, or were not audited lately; then get one project's health for its details.`,
		description: 'What the AI model reads about this tool: what it does and when to use it',
		displayOptions: { show: { '@tool': [true], output: ['digest'] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['project'], operation: ['getHealth'] } },
	properties,
);

/** Output → One Digest has its own tool description (above). */
export const toolDescriptionHide = { output: ['digest'] };

/** What an AI model reads about this operation when the node is a tool (see `toolDescriptionFields`). */
export const toolDescription =
	'How a whole site is doing in phpRank (one project, e.g. example.com): a few lines with its average score and class, health score (share of pages without a failed high-importance check), how many pages are good, decent and bad, the top issues and the worst pages with links. When page groups with budgets are set (sections of the site such as /products/**), it starts with the groups over budget, each broken rule and the pages to fix. Use it when asked how a site is doing, whether it holds its SEO budgets, or what to fix first across a site.';
