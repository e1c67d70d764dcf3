import type { INodeProperties } from 'n8n-workflow';

import { BOUNDS, boundedField } from '../bounds';

/*
 * Page Groups and Default Budget: the sections of a site, each held to its own bar (Create or
 * Re-Run and Project → Get Health; read and checked in site/pageGroups.ts, computed in
 * site/groups.ts).
 */

const { requiredCheckShare } = BOUNDS;

/** The rules of a budget, sorted as n8n lists a collection's options. */
const budgetRules: INodeProperties[] = [
	{
		displayName: 'Checks That Must Pass',
		name: 'requiredChecks',
		type: 'string',
		default: '',
		placeholder: 'meta_description, title:95',
		description: `The phpRank checks that must pass on at least a share of the group’s pages, comma-separated, each with its share in % after a colon (none: ${requiredCheckShare.default}%)`,
	},
	boundedField(
		'maxBadShare',
		'At most this share (%) of the group’s pages may be bad (a score below 49)',
	),
	boundedField('maxBadPages', 'At most this many of the group’s pages may be bad'),
	boundedField('minAverageScore', 'The group’s average score must be at least this (0-100)'),
	boundedField(
		'minHealthScore',
		'The group’s health score (the share of its pages without a failed high-importance check) must be at least this',
	),
];

export const pageGroupsParameter: INodeProperties = {
	displayName: 'Page Groups',
	name: 'pageGroups',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, sortable: true },
	placeholder: 'Add Page Group',
	default: {},
	description:
		'Sections of the site by URL pattern, in order: each page goes to the first group it matches, the others to Other. Each group gets its own figures and is held to its budget (<code>groups</code>, <code>budgets_passed</code>, <code>broken_groups</code>).',
	options: [
		{
			displayName: 'Group',
			name: 'group',
			values: [
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					placeholder: 'e.g. Products',
				},
				{
					displayName: 'URL Pattern',
					name: 'pattern',
					type: 'string',
					default: '',
					placeholder: 'e.g. /products/**',
					description:
						'A path: * any characters but /, ** any depth (/products/** also matches /products), / the home page. Or a regular expression over the path and query (Pattern Type).',
				},
				{
					displayName: 'Pattern Type',
					name: 'patternType',
					type: 'options',
					options: [
						{ name: 'Path', value: 'path' },
						{ name: 'Regular Expression', value: 'regex' },
					],
					default: 'path',
				},
				{
					displayName: 'Budget',
					name: 'budget',
					type: 'collection',
					placeholder: 'Add Rule',
					default: {},
					description: 'The group’s own rules; each rule it does not set comes from Default Budget',
					options: budgetRules,
				},
			],
		},
	],
};

export const defaultBudgetParameter: INodeProperties = {
	displayName: 'Default Budget',
	name: 'defaultBudget',
	type: 'collection',
	placeholder: 'Add Rule',
	default: {},
	description:
		'The rules every page group inherits unless it sets its own, and the budget of Other (the pages no group matches)',
	options: budgetRules,
};
