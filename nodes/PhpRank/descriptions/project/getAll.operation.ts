import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listParameters, projectSimplifyParameter, searchFilter } from '../common';
import { projectSpec } from './projectSpec';

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

/** What an AI model reads about this operation when the node is a tool (see `toolDescriptionFields`). */
export const toolDescription =
	'List phpRank projects, one per site host (e.g. example.com), with their number of reports and average score from 0 to 100. Use it to see which sites are audited and how each one scores overall.';
