import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	listParameters,
	projectLocator,
	resultFilter,
	scoreFilters,
	searchFilter,
	simplifyParameter,
} from '../common';
import { reportSpec } from './reportSpec';
import { RESULT_CLASSES_TEXT } from '../../api';

const properties: INodeProperties[] = [
	...listParameters(
		'reports',
		[
			projectLocator({
				description: 'Only reports of this project (the site’s host, e.g. example.com)',
				routing: { send: { type: 'query', property: 'project' } },
			}),
			resultFilter({ routing: { send: { type: 'query', property: 'result' } } }),
			...scoreFilters,
			searchFilter(reportSpec, 'e.g. /blog', 'Only reports whose URL contains this text'),
		],
		{
			options: [
				{ name: 'Date Created', value: 'id' },
				{ name: 'Result', value: 'result' },
				{ name: 'URL', value: 'url' },
			],
			default: 'id',
			// Date Generated (generated_at) was offered once, but phpRank sorts it by Date Created:
			// workflows saved with it get what phpRank gave them, sorted by ID (newest first by default).
			value: '={{ $value === "generated_at" ? "id" : $value }}',
		},
	),
	simplifyParameter,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['getAll'] } },
	properties,
);

/** What an AI model reads about this operation when the node is a tool (see `toolDescriptionFields`). */
export const toolDescription = `List phpRank SEO reports: ID, URL, score from 0 to 100, class (${RESULT_CLASSES_TEXT}) and analysis date of each, without check details. Use it to find reports or compare pages, e.g. the worst pages of a site; then get one report by its ID for its failed checks.`;
