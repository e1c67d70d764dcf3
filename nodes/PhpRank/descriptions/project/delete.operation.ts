import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { projectLocator } from '../common';

const properties: INodeProperties[] = [
	{
		displayName: 'Deleting a project deletes every report in it. This cannot be undone.',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	projectLocator({ required: true }),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['project'], operation: ['delete'] } },
	properties,
);

/** What an AI model reads about this operation when the node is a tool (see `toolDescriptionFields`). */
export const toolDescription =
	'Delete a phpRank project: every report of one site (host, e.g. example.com). It cannot be undone: use it only when the user asks to delete all reports of that site.';
