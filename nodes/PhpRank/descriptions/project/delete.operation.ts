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
