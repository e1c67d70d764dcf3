import type { INodeProperties } from 'n8n-workflow';

import { projectDeleted, shapeProjects } from '../../helpers/output';
import { projectPath } from '../../helpers/preSend';
import { deleteRoute, listRoute } from '../routing';
import * as del from './delete.operation';
import * as getAll from './getAll.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['project'] } },
		options: [
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a project and all its reports',
				description: 'Delete a project together with every report in it',
				routing: deleteRoute({ preSend: [projectPath], postReceive: [projectDeleted] }),
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many projects',
				description: 'List projects (sites) with their number of reports and average score',
				routing: listRoute('/projects', { postReceive: [shapeProjects] }),
			},
		],
		default: 'getAll',
	},
	...del.description,
	...getAll.description,
];
