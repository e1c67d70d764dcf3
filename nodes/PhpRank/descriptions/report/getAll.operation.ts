import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	pageSizeOption,
	projectLocator,
	resultFilter,
	returnAllOrLimit,
	searchFilters,
	simplifyParameter,
	sortByOption,
	sortDirectionOption,
} from '../common';

const properties: INodeProperties[] = [
	...returnAllOrLimit('reports'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			projectLocator({
				description: 'Only reports of this project (the site’s host, e.g. example.com)',
				routing: { send: { type: 'query', property: 'project' } },
			}),
			resultFilter({ routing: { send: { type: 'query', property: 'result' } } }),
			...searchFilters([{ name: 'URL', value: 'url' }], 'url', 'e.g. /blog'),
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			pageSizeOption,
			sortByOption(
				[
					{ name: 'Date Created', value: 'id' },
					{ name: 'Date Generated', value: 'generated_at' },
					{ name: 'Result', value: 'result' },
					{ name: 'URL', value: 'url' },
				],
				'id',
				'Note: phpRank instances sort by Date Created when asked for Date Generated',
			),
			sortDirectionOption,
		],
	},
	simplifyParameter,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['getAll'] } },
	properties,
);
