import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	DEFAULT_PRIVACY,
	MAX_PASSWORD_LENGTH,
	PAGE_SIZES,
	PRIVACY_CHOICES,
	REPORT_LINK,
	RESULT_CLASS_RANGES,
	RESULT_CLASSES,
} from '../api';
import { BOUNDS, boundedField } from '../bounds';
import { searchIn } from '../input';
import type { ResourceSpec } from '../transport/resource';

/** Return All / Limit, as every n8n list operation offers them. Paging: transport/paging.ts. */
function returnAllOrLimit(what: string): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: BOUNDS.limit.low },
			// BOUNDS.limit.default; n8n's lint wants the literal here.
			default: 50,
			description: 'Max number of results to return',
			hint: `The first ${what} in the sort order that match the filters, up to this many`,
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

const pageSizeOption: INodeProperties = {
	displayName: 'Page Size',
	name: 'pageSize',
	type: 'options',
	options: [
		{
			name: 'Automatic',
			value: '',
			description: 'The node picks the size that needs the fewest requests',
		},
		...PAGE_SIZES.map((size) => ({ name: String(size), value: size })),
	],
	default: '',
	description: 'How many results each request to phpRank asks for',
	routing: { send: { type: 'query', property: 'per_page' } },
};

const sortDirectionOption: INodeProperties = {
	displayName: 'Sort Direction',
	name: 'sortDirection',
	type: 'options',
	options: [
		{ name: 'Descending', value: 'desc' },
		{ name: 'Ascending', value: 'asc' },
	],
	default: 'desc',
	routing: { send: { type: 'query', property: 'sort' } },
};

/** `value`: an expression of `$value` that sends something else than the choice (see report Get Many). */
function sortByOption(
	options: INodePropertyOptions[],
	defaultValue: string,
	value?: string,
): INodeProperties {
	return {
		displayName: 'Sort By',
		name: 'sortBy',
		type: 'options',
		options,
		default: defaultValue,
		routing: { send: { type: 'query', property: 'sort_by', ...(value ? { value } : {}) } },
	};
}

/** Search: phpRank searches one field per list (the spec's `searchBy`), sent with it (search_by), never alone. */
export function searchFilter(
	spec: ResourceSpec,
	placeholder: string,
	description: string,
): INodeProperties {
	return {
		displayName: 'Search',
		name: 'search',
		type: 'string',
		default: '',
		placeholder,
		description,
		routing: {
			send: { type: 'query', property: 'search', preSend: [searchIn(spec.searchBy ?? '')] },
		},
	};
}

export const simplifyParameter: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return a compact report (ID, URL, project, score, class, failed checks, privacy, dates) instead of the full record with every check result',
};

export const projectSimplifyParameter: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return each project as a site’s health (name, number of reports, average score and its class, first report’s date) instead of phpRank’s record (whose result is the sum of the scores)',
};

/** The project picker: wherever a project is chosen. */
export function projectLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Project',
		name: 'project',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: 'A project is the group of your reports that share a host, e.g. example.com',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchProjects', searchable: true },
			},
			{
				displayName: 'By Name',
				name: 'name',
				type: 'string',
				placeholder: 'example.com',
				validation: [
					{
						type: 'regex',
						properties: { regex: '.*\\S.*', errorMessage: 'Enter a project name' },
					},
				],
			},
		],
		...overrides,
	};
}

/** The report picker: Get, Update and Delete. The ID is checked and put in the path by preSend. */
export const reportLocator: INodeProperties = {
	displayName: 'Report',
	name: 'reportId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchReports', searchable: true },
		},
		{
			displayName: 'By URL',
			name: 'url',
			type: 'string',
			placeholder: 'https://seo.example.com/reports/42',
			// The link of a report page as it is copied: any scheme or none, a sub-path, a trailing
			// slash, a query or a fragment. The node checks that it is on the credential's instance.
			validation: [
				{
					type: 'regex',
					properties: {
						regex: REPORT_LINK,
						errorMessage:
							'Paste the link of a report page in phpRank, e.g. https://seo.example.com/reports/42',
					},
				},
			],
			extractValue: { type: 'regex', regex: REPORT_LINK },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: '42',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^\\s*[1-9][0-9]*\\s*$',
						errorMessage: 'A report ID is a positive whole number',
					},
				},
			],
		},
	],
};

/** The Result filter: phpRank's classes of the 0-100 score. */
export function resultFilter(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Result',
		name: 'result',
		type: 'options',
		options: [
			{ name: 'Any', value: '', description: 'Every report, whatever its score' },
			// Worst first, as the editor has always listed them.
			...[...RESULT_CLASSES].reverse().map(({ value }) => {
				const { label, text } = RESULT_CLASS_RANGES[value];
				return {
					name: label,
					value,
					description: `Score ${text.includes(' to ') ? `from ${text}` : text}`,
				};
			}),
		],
		default: '',
		description: 'Only reports of this result class',
		...overrides,
	};
}

/** Minimum Score / Maximum Score of Report → Get Many (checked and applied in operations/getMany/scoreRange.ts). */
export const scoreFilters: INodeProperties[] = (['minScore', 'maxScore'] as const).map((name) =>
	boundedField(
		name,
		`Only reports that scored at ${name === 'minScore' ? 'least' : 'most'} this (${BOUNDS[name].low} to ${BOUNDS[name].high})`,
	),
);

/** The Filters collection: each filter is sent only once the user adds it. */
export function filtersCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options,
	};
}

/** The parameters of a list operation: Return All / Limit, its filters, page size and sorting. */
export function listParameters(
	what: string,
	filters: INodeProperties[],
	sort: { options: INodePropertyOptions[]; default: string; value?: string },
): INodeProperties[] {
	return [
		...returnAllOrLimit(what),
		filtersCollection(filters),
		optionsCollection([
			pageSizeOption,
			sortByOption(sort.options, sort.default, sort.value),
			sortDirectionOption,
		]),
	];
}

/** An operation's Options: what most runs leave at its default, as n8n's own nodes keep it. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

const PRIVACY_OPTIONS = PRIVACY_CHOICES.map(({ label, value, description }) => ({
	name: label,
	value,
	description,
}));

/** A report's privacy, on Create and among Update's fields. */
export function privacyField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Privacy',
		name: 'privacy',
		type: 'options',
		options: PRIVACY_OPTIONS,
		default: DEFAULT_PRIVACY,
		description: 'Who can open the report in phpRank',
		...overrides,
	};
}

/** A report's password (masked), on Create and among Update's fields. */
export function passwordField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description: `The password visitors must enter to open the report (at most ${MAX_PASSWORD_LENGTH} characters). Needed, and sent, only with Password privacy.`,
		...overrides,
	};
}

/*
 * What an AI model reads about each operation when the node is used as a tool (phpRank Tool): each
 * operation's `toolDescription`, beside its fields. n8n's own fallback is the operation's action plus
 * " in phpRank" ("Get many reports in phpRank"), which says neither what comes back nor when to call
 * it. A node that declares `toolDescription` itself keeps n8n from adding its own; '@tool' shows
 * these only on the tool.
 */
export function toolDescriptionFields(
	resource: string,
	operations: Record<
		string,
		{ toolDescription: string; toolDescriptionHide?: Record<string, string[]> }
	>,
): INodeProperties[] {
	return Object.entries(operations).map(
		([operation, { toolDescription, toolDescriptionHide }]) => ({
			displayName: 'Tool Description',
			name: 'toolDescription',
			type: 'string' as const,
			typeOptions: { rows: 4 },
			default: toolDescription,
			description: 'What the AI model reads about this tool: what it does and when to use it',
			displayOptions: {
				show: { '@tool': [true], resource: [resource], operation: [operation] },
				// An option with a tool description of its own (Get Health's One Digest) hides this one.
				...(toolDescriptionHide ? { hide: toolDescriptionHide } : {}),
			},
		}),
	);
}

/*
 * The node's own Request Options: n8n merges this collection into the one it adds to every
 * declarative node (Batching, Timeout, Proxy…), so the option sits beside Timeout.
 */
export const requestOptions: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		boundedField(
			'waitOutOutages',
			'How long one request keeps being retried while phpRank is unavailable (HTTP 502, 503 or 504, the connection refused or reset, no answer before the Timeout), with growing waits spread at random. 0 fails at once. A create is sent again only when the connection was refused (phpRank never got it).',
		),
	],
};
