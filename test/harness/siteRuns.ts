import type { IDataObject } from 'n8n-workflow';

import { runNode, type TestN8nApiCredential } from './engine';
import type { ServerFixture } from './setup';

/**
 * Create or Re-Run (One Item per Site) run as n8n runs a workflow over months: production executions
 * (mode `webhook`, each with its own ID unless given) and manual ones, the workflow's static data kept
 * between them as n8n's database keeps it (saved after a run whose mode is not manual).
 */
export function siteRuns(
	api: ServerFixture,
	parameters: (extra: IDataObject) => IDataObject,
	defaults: { urls: string[]; n8nApi?: () => TestN8nApiCredential },
) {
	const state = { saved: {} as IDataObject, executions: 0 };
	const run = async (
		mode: 'webhook' | 'manual',
		o: {
			extra?: IDataObject;
			urls?: string[];
			id?: string;
			workflowId?: string;
			n8nApi?: TestN8nApiCredential;
			/** Another node of the workflow instead (e.g. Record Finding Ticket): its parameters and input. */
			node?: { parameters: IDataObject; items: IDataObject[] };
		} = {},
	) => {
		const result = await runNode(o.node?.parameters ?? parameters(o.extra ?? {}), api.credential, {
			items: o.node?.items ?? (o.urls ?? defaults.urls).map((url) => ({ url })),
			execution: {
				mode,
				id: o.id ?? String(++state.executions),
				workflowId: o.workflowId ?? 'wf-1',
				staticData: structuredClone(state.saved),
				n8nApi: o.n8nApi ?? defaults.n8nApi?.(),
			},
		});
		if (mode !== 'manual' && result.staticData.__dataChanged === true)
			state.saved = JSON.parse(JSON.stringify(result.staticData)) as IDataObject;
		return result;
	};
	const reset = () => Object.assign(state, { saved: {}, executions: 0 });
	return { run, state, reset };
}
