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

/** What an AI model reads about this operation when the node is a tool (see `toolDescriptionFields`). */
export const toolDescription =
	'How a whole site is doing in phpRank (one project, e.g. example.com): a few lines with its average score and class, health score (share of pages without a failed high-importance check), how many pages are good, decent and bad, the top issues and the worst pages with links. Use it when asked how a site is doing or what to fix first across a site.';
