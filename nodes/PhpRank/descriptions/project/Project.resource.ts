import type { INodeProperties } from 'n8n-workflow';

import { projectPath } from '../../operations/input';
import { projectDeleted, shapeProjects } from '../../operations/output';
import { deleteRoute, listRoute } from '../../operations/routes';
import { projectSpec } from './project.spec';
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
				routing: deleteRoute(projectSpec, { preSend: [projectPath(projectSpec)], postReceive: [projectDeleted] }),
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many projects',
				description: 'List projects (sites) with their number of reports and average score',
				routing: listRoute(projectSpec, { postReceive: [shapeProjects] }),
			},
		],
		default: 'getAll',
	},
	...del.description,
	...getAll.description,
];
