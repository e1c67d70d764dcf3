import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listParameters, projectSimplifyParameter, searchFilters } from '../common';

const properties: INodeProperties[] = [
	...listParameters(
		'projects',
		searchFilters([{ name: 'Name', value: 'project' }], 'project', 'e.g. example.com'),
		{
			options: [
				{ name: 'Date Created', value: 'created_at' },
				{ name: 'Name', value: 'project' },
			],
			default: 'created_at',
		},
	),
	projectSimplifyParameter,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['project'], operation: ['getAll'] } },
	properties,
);
