import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as project from './descriptions/project/Project.resource';
import * as report from './descriptions/report/Report.resource';
import { requestOptions } from './descriptions/common';
import { docsUrl } from './docs';
import { phpRankApiTest } from './methods/credentialTest';
import { phpRankN8nApiTest, searchHistoryTables } from './methods/historyTables';
import { searchProjects, searchReports } from './methods/listSearch';

export class PhpRank implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'phpRank',
		name: 'phpRank',
		icon: { light: 'file:phprank.svg', dark: 'file:phprank.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: 'Create, list, re-run and delete SEO reports of a self-hosted phpRank instance',
		defaults: { name: 'phpRank' },
		documentationUrl: docsUrl('operations'),
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Literal names: the scanner's credential-test-required rule reads them from the source.
		credentials: [
			// displayName: the field's label in the editor (n8n 2.0 and 2.41 label it "Credential" without
			// one, so a panel showed two fields of that name).
			{
				name: 'phpRankApi',
				displayName: 'phpRank API',
				required: true,
				testedBy: 'phpRankApiTest',
				displayOptions: { show: { authentication: ['phpRankApi'] } },
			},
			// History Store → Data Table: n8n's own public API. Optional and shown in every panel: n8n's
			// editor hides every parameter a credential's displayOptions name, and those they depend on
			// (Resource, Operation, Output), so it cannot be shown for History Store alone.
			{
				name: 'phpRankN8nApi',
				displayName: 'n8n API (only for History Store → Data Table)',
				required: false,
				testedBy: 'phpRankN8nApiTest',
			},
		],
		// Empty: n8n evaluates requestDefaults for every item. Every operation routes through a step
		// of operations/, which takes the instance from the credential once per run and sets the
		// headers each request needs (requestOptionsFor in transport/request.ts). Defined all the
		// same: n8n knows declarative nodes by it, and gives a declarative node with `methods` the
		// `execute` that AI tool calls use (MCP Server Trigger) only when it exists (n8n 2.41, cli
		// shouldAssignExecuteMethod).
		requestDefaults: {},
		properties: [
			// With two credentials, n8n's RoutingNode takes the one whose displayOptions show this
			// parameter's value: always phpRank's (the n8n API one serves History Store alone).
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'hidden',
				default: 'phpRankApi',
			},
			...report.toolDescriptions,
			...project.toolDescriptions,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Project', value: 'project' },
					{ name: 'Report', value: 'report' },
				],
				default: 'report',
			},
			...report.description,
			...project.description,
			requestOptions,
		],
	};

	methods = {
		listSearch: { searchProjects, searchReports, searchHistoryTables },
		credentialTest: { phpRankApiTest, phpRankN8nApiTest },
	};
}
