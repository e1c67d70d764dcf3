import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listParameters, projectSimplifyParameter, searchFilter } from '../common';
import { projectSpec } from './project.spec';

const properties: INodeProperties[] = [
	...listParameters(
		'projects',
		[searchFilter(projectSpec, 'e.g. example.com', 'Only projects whose name contains this text')],
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
