import type { INodeProperties } from 'n8n-workflow';

import { BOUNDS, boundedField } from '../bounds';

/*
 * The fields of a whole-site answer: Project → Get Health, and Create or Re-Run's One Item per
 * Site (checked in site/options.ts; computed in site/figures.ts).
 */

const { worstPages, minChange } = BOUNDS;

const worstPagesOption = boundedField(
	'worstPages',
	`How many of the lowest-scoring pages to list (worst_pages, and biggest_drops of a re-run), ${worstPages.low} to ${worstPages.high}`,
);

const worstPagesByOption: INodeProperties = {
	displayName: 'Worst Pages By',
	name: 'worstPagesBy',
	type: 'options',
	default: 'score',
	description:
		'How worst_pages are chosen. Most Clicks needs Search Console Data: the pages failing a check, most clicks first, so the low scores that cost traffic come first.',
	options: [
		{
			name: 'Lowest Score',
			value: 'score',
			description: 'The lowest-scoring pages, lowest first',
		},
		{
			name: 'Most Clicks',
			value: 'clicks',
			description:
				'The pages failing at least one check, most Search Console clicks first (the lower score on a tie)',
		},
	],
};

const minChangeOption = boundedField(
	'minChange',
	`Points a page’s score must move by to count as worse or better (${minChange.low}-${minChange.high}). Analyses are noisy: a few points is usually no real change.`,
);

const figuresFromOption: INodeProperties = {
	displayName: 'Figures From',
	name: 'figuresFrom',
	type: 'options',
	default: 'run',
	description:
		'Which pages the site’s health, page groups and budgets are judged on. Every Page of the Site suits a deploy that sends only its changed URLs: those are analysed, the rest count as their newest reports say.',
	options: [
		{
			name: 'Every Page of the Site',
			value: 'site',
			description:
				'The pages this run analysed, and every other page of the site as its newest report says (read with the site’s reports: no request more)',
		},
		{
			name: 'Pages of This Run',
			value: 'run',
			description: 'Only the pages this run analysed',
		},
	],
};

/** Site Options: Worst Pages, and for a re-run also Minimum Change and Figures From. */
export function siteOptions(
	forRerun: boolean,
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName: 'Site Options',
		name: 'siteOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: forRerun
			? [figuresFromOption, minChangeOption, worstPagesOption, worstPagesByOption]
			: [worstPagesOption, worstPagesByOption],
		...overrides,
	};
}

export const siteSimplifyParameter: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return each site flat, for tables (lists as short text), instead of with its lists as arrays (every failing check, the worst pages with their links)',
};

/** Search Console Data: Google Search Console's clicks beside each problem (site/traffic.ts). */
export const searchConsoleDataParameter: INodeProperties = {
	displayName: 'Search Console Data',
	name: 'searchConsoleData',
	type: 'json',
	default: '',
	placeholder: "{{ $('Search Console').item.json }}",
	description:
		'Optional. The Search Analytics answer of Google Search Console (searchanalytics.query, dimensions page) from an earlier node, e.g. an HTTP Request node: its rows, or a list of answers when paged. Each failing check and page group then says the clicks and impressions of the pages it fails on, <code>fix_first</code> ranks the checks by clicks, and the summary leads with the fix touching most clicks. No phpRank request more.',
};
