import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { projectLocator } from '../common';
import { siteOptions, siteSimplifyParameter } from '../site';

const properties: INodeProperties[] = [
	{
		displayName: 'All Projects',
		name: 'allProjects',
		type: 'boolean',
		default: false,
		description: 'Whether to get the health of every project (one item each) instead of one',
	},
	projectLocator({ required: true, displayOptions: { show: { allProjects: [false] } } }),
	siteSimplifyParameter,
	siteOptions(false),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['project'], operation: ['getHealth'] } },
	properties,
);
