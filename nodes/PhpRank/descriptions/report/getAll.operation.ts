import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listParameters, projectLocator, resultFilter, searchFilters, simplifyParameter } from '../common';

const properties: INodeProperties[] = [
	...listParameters(
		'reports',
		[
			projectLocator({
				description: 'Only reports of this project (the site’s host, e.g. example.com)',
				routing: { send: { type: 'query', property: 'project' } },
			}),
			resultFilter({ routing: { send: { type: 'query', property: 'result' } } }),
			...searchFilters([{ name: 'URL', value: 'url' }], 'url', 'e.g. /blog'),
		],
		{
			options: [
				{ name: 'Date Created', value: 'id' },
				{ name: 'Date Generated', value: 'generated_at' },
				{ name: 'Result', value: 'result' },
				{ name: 'URL', value: 'url' },
			],
			default: 'id',
			note: 'Note: phpRank instances sort by Date Created when asked for Date Generated',
		},
	),
	simplifyParameter,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['getAll'] } },
	properties,
);
