import type { INodeProperties } from 'n8n-workflow';

import { MAX_COMPETITORS } from '../../engine/comparison';
import { compareRoute } from '../../operations/compare/step';
import { createOrRerunRoute } from '../../operations/createOrRerun/step';
import { recordTicketRoute } from '../../operations/recordTicket/step';
import { checkScoreRange, scoreKeep } from '../../operations/getMany/scoreRange';
import { checkCreateBody, reportPath } from '../../input';
import { reportDeleted } from '../../operations/delete/deleted';
import { shapeReports } from '../../engine/reportItem';
import { buildUpdateBody } from '../../operations/update/checks';
import { readBeforeRerun, withChanges } from '../../operations/update/rerun';
import { deleteRoute, listRoute, recordRoute } from '../../engine/routes';
import { reportLocator, toolDescriptionFields } from '../common';
import { reportSpec } from './reportSpec';
import * as compare from './compare.operation';
import * as create from './create.operation';
import * as createOrRerun from './createOrRerun.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as recordTicket from './recordTicket.operation';
import * as update from './update.operation';

const reportOutput = { postReceive: [shapeReports] };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['report'] } },
		options: [
			{
				name: 'Compare With Competitors',
				value: 'compare',
				action: 'Compare a page with competitors',
				description: `Analyse your page and up to ${MAX_COMPETITORS} competitors’ (or reuse their recent reports) and see, check by check, what they pass and you fail`,
				routing: compareRoute(reportSpec),
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Create a report',
				description: 'Analyse a URL and store its SEO report (takes a few seconds)',
				routing: recordRoute(
					reportSpec,
					{ method: 'POST', url: reportSpec.path },
					{ preSend: [checkCreateBody], ...reportOutput },
				),
			},
			{
				name: 'Create or Re-Run',
				value: 'createOrRerun',
				// "rerun", not "re-run": n8n's community scanner (sentence case) rejects a hyphen here.
				action: 'Create or rerun a report for a URL',
				description:
					'Re-run the analysis of your report of a URL, or create one if you have none (never a second report), and see what changed',
				routing: createOrRerunRoute(reportSpec, [checkCreateBody]),
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a report',
				description: 'Delete a report by its ID (cannot be undone)',
				routing: deleteRoute(reportSpec, {
					preSend: [reportPath(reportSpec)],
					postReceive: [reportDeleted],
				}),
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a report',
				description: 'Get one report by its ID, with its score and checks',
				routing: recordRoute(
					reportSpec,
					{ method: 'GET' },
					{ preSend: [reportPath(reportSpec)], ...reportOutput },
				),
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many reports',
				description: 'List reports, with search, filters and sorting',
				routing: listRoute(reportSpec, {
					preSend: [checkScoreRange],
					postReceive: [shapeReports],
					keep: scoreKeep,
				}),
			},
			{
				name: 'Record Finding Ticket',
				value: 'recordTicket',
				action: 'Record the ticket of a finding',
				description:
					'Hand back the ticket a GitHub, Jira or Linear node opened for a finding of Create or Re-Run (One Item per Finding Change), so it is not opened again and its later items carry it. No phpRank request.',
				routing: recordTicketRoute(reportSpec),
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a report',
				description: 'Change the privacy of a report, or re-run its SEO analysis',
				routing: recordRoute(
					reportSpec,
					{ method: 'PUT' },
					{
						preSend: [reportPath(reportSpec), buildUpdateBody],
						postReceive: [withChanges, shapeReports],
					},
					readBeforeRerun,
				),
			},
		],
		default: 'getAll',
	},
	// Declared once for the three operations: n8n resolves every declared parameter for every item.
	{
		...reportLocator,
		displayOptions: { show: { resource: ['report'], operation: ['get', 'update', 'delete'] } },
	},
	...compare.description,
	...create.description,
	...createOrRerun.description,
	...get.description,
	...getAll.description,
	...recordTicket.description,
	...update.description,
];

export const toolDescriptions = toolDescriptionFields('report', {
	compare,
	create,
	createOrRerun,
	delete: del,
	get,
	getAll,
	recordTicket,
	update,
});
