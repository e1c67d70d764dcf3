import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	pageSizeOption,
	returnAllOrLimit,
	searchFilters,
	sortByOption,
	sortDirectionOption,
} from '../common';

const properties: INodeProperties[] = [
	...returnAllOrLimit('projects'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: searchFilters([{ name: 'Name', value: 'project' }], 'project', 'e.g. example.com'),
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
					{ name: 'Date Created', value: 'created_at' },
					{ name: 'Name', value: 'project' },
				],
				'created_at',
			),
			sortDirectionOption,
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['project'], operation: ['getAll'] } },
	properties,
);
