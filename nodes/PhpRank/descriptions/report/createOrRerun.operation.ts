import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { BOUNDS, boundedField } from '../../bounds';
import { optionsCollection, projectLocator, simplifyParameter } from '../common';
import { defaultBudgetParameter, pageGroupsParameter } from '../pageGroups';
import { searchConsoleDataParameter, siteOptions } from '../site';
import { createFields } from './create.operation';
import {
	emailHtmlOption,
	historyLengthOption,
	historyStoreParameters,
	reportBrandingParameter,
} from './history';
import { RESULT_CLASSES_TEXT } from '../../api';
import { findingOptionsParameter, findingsOutputOption } from './findings';

const { dropPoints, reuseRecentAnalysis: reuse } = BOUNDS;

/** Site Options of a site's run, E-Mail HTML and History Length among them (sorted as n8n lists options). */
const withHistoryLength = (options: INodeProperties): INodeProperties => ({
	...options,
	options: [...(options.options as INodeProperties[]), emailHtmlOption, historyLengthOption].sort(
		(a, b) => a.displayName.localeCompare(b.displayName),
	),
});

/*
 * Options: what most runs leave at its default, as n8n's own nodes keep it (all new in 0.2.0, with
 * Create or Re-Run itself). Drop Points is offered once Confirm Drops is on: displayOptions inside a
 * collection read its sibling options (n8n-workflow displayParameterPath; the editor, test:ui).
 */
const rerunOptions: INodeProperties = optionsCollection([
	{
		displayName: 'Confirm Drops',
		name: 'confirmDrops',
		type: 'boolean',
		default: false,
		description:
			'Whether to analyse a page once more right away when its score fell by at least Drop Points, or a high-importance check newly failed, and say whether the drop held (confirmed) or was noise. One more request per suspected drop, none for other pages.',
	},
	boundedField(
		'dropPoints',
		`With Confirm Drops on: how many points a score must fall by to be analysed again (${dropPoints.low}-${dropPoints.high}; 0: any fall)`,
		{ displayOptions: { show: { confirmDrops: [true] } } },
	),
	{
		displayName: 'Public URLs Only',
		name: 'publicUrlsOnly',
		type: 'boolean',
		default: false,
		description:
			'Whether to refuse, before anything is sent, a URL that is not a public web page: not http(s), longer than 2,000 characters, or pointing to localhost or a private, loopback or link-local address. Turn it on when the URL comes from the public, e.g. a form.',
	},
	{
		...boundedField(
			'reuseRecentAnalysis',
			`Return the newest report of the URL as it is, with no new analysis, when it was analysed less than this many hours ago (${reuse.low}: always analyse; at most ${reuse.high}, a year). The output says <code>action: reused</code>. Saves requests when a URL comes back often, e.g. from a public form.`,
		),
		displayName: 'Reuse Recent Analysis (Hours)',
	},
]);

const properties: INodeProperties[] = [
	{
		displayName:
			'Re-runs the analysis of the report you already have for this URL, or creates one when you have none: never a second report. The output says which (<code>action</code>) and what changed since the last analysis (<code>changes</code>).',
		name: 'createOrRerunNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Pages From',
		name: 'pagesFrom',
		type: 'options',
		options: [
			{
				name: 'URL',
				value: 'url',
				description: 'The page in URL: one per input item',
			},
			{
				name: 'A Project’s Reports',
				value: 'project',
				description:
					'Every page the project has a report of (its newest report re-run), from one list read per 100 reports: a whole site in one node, no Get Many before it',
			},
		],
		default: 'url',
		description: 'Which pages to analyse',
	},
	projectLocator({
		required: true,
		description:
			'The site whose pages to analyse: a project is the group of your reports that share a host, e.g. example.com. By Name takes an expression, e.g. {{ $json.body.site }} from a webhook.',
		displayOptions: { show: { pagesFrom: ['project'] } },
	}),
	{
		displayName: 'Changed URLs',
		name: 'changedUrls',
		type: 'string',
		default: '',
		placeholder: 'https://example.com/pricing',
		description:
			'Only these pages of the project are analysed (e.g. a deploy’s changed pages; a page with no report yet is created), a list from an expression or one URL per line. One Item per Site still judges the site, its groups and budgets on every page: the others as their newest reports say. Empty: every page is analysed.',
		displayOptions: { show: { pagesFrom: ['project'] } },
	},
	...createFields({
		urlDescription:
			'The page to analyse, e.g. example.com/pricing or https://example.com/pricing: https:// is added when the URL has no scheme (as the phpRank Trigger and forms give it); only http and https are taken. The same page as one of your reports when it matches its URL without the scheme and a leading www.',
		privacyDescription:
			'Who can open the report in phpRank, when it is created. A report that is re-run keeps its privacy.',
	})
		// Simplify goes below Output (it shapes the page items): five fields at most before Output.
		.filter((field) => field.name !== 'simplify')
		.map((field) =>
			field.name === 'url' ? { ...field, displayOptions: { show: { pagesFrom: ['url'] } } } : field,
		),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: 'One Item per Page',
				value: 'pages',
				description: 'Each page’s report, with what was done and what changed',
			},
			{
				name: 'One Item per Site',
				value: 'sites',
				description:
					'One summary per site of the run (with Pages From → A Project’s Reports, of every page of the project): scores before and after, pages worse and better, checks newly failing and fixed, the worst pages and biggest drops, and a message to send',
			},
			findingsOutputOption,
		],
		default: 'pages',
		description:
			'Whether to return each page, or a summary of each site (project) the input’s URLs belong to',
	},
	simplifyParameter,
	{
		...searchConsoleDataParameter,
		description: `${searchConsoleDataParameter.description} One Item per Page: each page’s clicks.`,
	},
	{
		...pageGroupsParameter,
		description: `${pageGroupsParameter.description} One Item per Page: each page says its <code>group</code>.`,
	},
	{ ...defaultBudgetParameter, displayOptions: { show: { output: ['sites', 'findings'] } } },
	...historyStoreParameters.map((parameter) => ({
		...parameter,
		displayOptions: { show: { output: ['sites', 'findings'], ...parameter.displayOptions?.show } },
	})),
	{
		displayName: 'Run Key',
		name: 'runKey',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.body.run }}',
		description:
			'The run this execution audits the site for, e.g. the ID of the execution that dispatched the site (sent with it) or the date. A second production execution of the same site and key (a dispatcher’s retry, Executions → Retry) replaces that run’s record instead of adding one, and compares with the run before. Empty: each execution is a run of its own.',
		displayOptions: { show: { output: ['sites', 'findings'] } },
	},
	withHistoryLength(
		siteOptions(true, { displayOptions: { show: { output: ['sites', 'findings'] } } }),
	),
	{ ...reportBrandingParameter, displayOptions: { show: { output: ['sites'] } } },
	findingOptionsParameter,
	rerunOptions,
	{
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: `Audit the SEO of a whole site (project, e.g. example.com) with phpRank: every page the site has a report of is analysed again, or only the changed URLs given, and the site is judged on all its pages. Returns the site's average score from 0 to 100 (${RESULT_CLASSES_TEXT}), its health score (share of pages without a failed high-importance check), pages worse and better since the last run, newly failing and fixed checks, the worst pages, and its page groups over budget when budgets are set. Use it when asked to audit, re-check or gate a deploy of a whole site.`,
		description: 'What the AI model reads about this tool: what it does and when to use it',
		displayOptions: { show: { '@tool': [true], pagesFrom: ['project'] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['createOrRerun'] } },
	properties,
);

/** What an AI model reads about this operation when the node is a tool (see `toolDescriptionFields`). */
export const toolDescription = `Audit the SEO of one web page with phpRank, re-using its report: when the page already has a report, its analysis is re-run and "changes" says what changed since the last analysis (e.g. "score 72 → 61; newly failed: title (high)"); otherwise a report is created (changes is null). Returns the report: ID, score from 0 to 100, class (${RESULT_CLASSES_TEXT}) and its failed checks by importance. Use it when asked to audit, check or re-check a page, or whether it got worse.`;

/** With Pages From → A Project's Reports the tool audits a site: this description instead. */
export const toolDescriptionHide = { pagesFrom: ['project'] };
