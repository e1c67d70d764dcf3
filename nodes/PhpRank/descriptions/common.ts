import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { MAX_PASSWORD_LENGTH, PAGE_SIZES, REPORT_LINK } from '../api';

/** Return All / Limit, as every n8n list operation offers them. Paging itself is in operations/list.ts. */
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
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			hint: `Fetches as few pages of ${what} as the limit needs`,
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

const pageSizeOption: INodeProperties = {
	displayName: 'Page Size',
	name: 'pageSize',
	type: 'options',
	options: PAGE_SIZES.map((size) => ({ name: String(size), value: size })),
	default: 100,
	description:
		'How many results each request asks for. By default the node picks the size that needs the fewest requests.',
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

function sortByOption(options: INodePropertyOptions[], defaultValue: string, note?: string): INodeProperties {
	return {
		displayName: 'Sort By',
		name: 'sortBy',
		type: 'options',
		options,
		default: defaultValue,
		description: note,
		routing: { send: { type: 'query', property: 'sort_by' } },
	};
}

export function searchFilters(
	searchByOptions: INodePropertyOptions[],
	searchByDefault: string,
	placeholder: string,
): INodeProperties[] {
	return [
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			placeholder,
			description: 'Text the results must contain',
			routing: { send: { type: 'query', property: 'search' } },
		},
		{
			displayName: 'Search By',
			name: 'searchBy',
			type: 'options',
			options: searchByOptions,
			default: searchByDefault,
			description: 'The field Search looks in',
			routing: { send: { type: 'query', property: 'search_by' } },
		},
	];
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
						errorMessage: 'Paste the link of a report page in phpRank, e.g. https://seo.example.com/reports/42',
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
					properties: { regex: '^\\s*[1-9][0-9]*\\s*$', errorMessage: 'A report ID is a positive whole number' },
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
			{ name: 'Bad', value: 'bad', description: 'Score below 49' },
			{ name: 'Decent', value: 'decent', description: 'Score from 49 to 79' },
			{ name: 'Good', value: 'good', description: 'Score above 79' },
		],
		default: 'bad',
		description: 'Only reports of this result class',
		...overrides,
	};
}

/** The Filters collection: each filter is sent only once the user adds it. */
export function filtersCollection(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, options };
}

/** The parameters of a list operation: Return All / Limit, its filters, page size and sorting. */
export function listParameters(
	what: string,
	filters: INodeProperties[],
	sort: { options: INodePropertyOptions[]; default: string; note?: string },
): INodeProperties[] {
	return [
		...returnAllOrLimit(what),
		filtersCollection(filters),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [pageSizeOption, sortByOption(sort.options, sort.default, sort.note), sortDirectionOption],
		},
	];
}

const PRIVACY_OPTIONS = [
	{ name: 'Public', value: 0, description: 'Anyone with the link can open the report' },
	{ name: 'Private', value: 1, description: 'Only you can open the report' },
	{ name: 'Password', value: 2, description: 'Visitors need a password to open the report' },
];

/** A report's privacy, on Create and among Update's fields. */
export function privacyField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Privacy',
		name: 'privacy',
		type: 'options',
		options: PRIVACY_OPTIONS,
		default: 1,
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
