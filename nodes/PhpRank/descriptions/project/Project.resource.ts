import type { INodeProperties } from 'n8n-workflow';

import { healthRoute } from '../../operations/getHealth/step';
import { projectPath } from '../../input';
import { projectDeleted } from '../../operations/delete/deleted';
import { shapeProjects } from '../../operations/getMany/projects';
import { deleteRoute, listRoute } from '../../engine/routes';
import { projectSpec } from './projectSpec';
import * as del from './delete.operation';
import * as getAll from './getAll.operation';
import * as getHealth from './getHealth.operation';
import { reportSpec } from '../report/reportSpec';
import { toolDescriptionFields } from '../common';

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
				routing: deleteRoute(projectSpec, {
					preSend: [projectPath(projectSpec)],
					postReceive: [projectDeleted],
				}),
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many projects',
				description: 'List projects (sites) with their number of reports and average score',
				routing: listRoute(projectSpec, { postReceive: [shapeProjects] }),
			},
			{
				name: 'Get Health',
				value: 'getHealth',
				action: 'Get the health of a site',
				description:
					'A site’s health from its reports: average and median score, health score, failing checks, top issues and worst pages, with a summary to send',
				routing: healthRoute(reportSpec),
			},
		],
		default: 'getAll',
	},
	...del.description,
	...getAll.description,
	...getHealth.description,
];

export const toolDescriptions = toolDescriptionFields('project', {
	delete: del,
	getHealth,
	getAll,
});
