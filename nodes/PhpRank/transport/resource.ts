import type { IDataObject } from 'n8n-workflow';

// What the request layer needs to know about a resource, declared as data beside its descriptions
// (descriptions/<resource>/<resource>Spec.ts): nothing in transport/ or operations/ names one.
export interface ResourceSpec {
	noun: string;
	plural: string;
	/** The collection under /api/v1: `/reports`; a path below it names one record by its key. */
	path: string;
	key: string;
	/** The key as a user knows it, for "check the …": `report ID`, `project name`. */
	keyName: string;
	/** Whether messages quote the key: `project "example.com"` rather than `report 12`. */
	quoteKey?: boolean;
	/** What `data` of a single-record answer must hold: its key, in a form this pattern matches; and that, in words. */
	record?: { describe: string; key: RegExp };
	/** The body field a create names its record by (`url`): a failed create says which one. */
	createdFrom?: string;
	// Paths of the node's secret parameters, masked wherever n8n carries the node (errors, logs);
	// every resource lists all of the node's, so an error about one masks the others' too.
	secretParameters?: string[][];
	// The query (or none, for phpRank's default order) that sorts by key, highest first, new records
	// only at the top: the paging rule is then exact on a list that moves.
	newestFirst?: IDataObject;
	pickerOrder?: IDataObject;
	/** The field phpRank's `search` looks in (`search_by`). */
	searchBy?: string;
	/** Requests that make phpRank work for seconds (an analysis): a method, and body values it sends. They get the longer timeout. */
	slowRequests?: Array<{ method: string; body?: IDataObject }>;
}

export function defineResource<T extends ResourceSpec>(spec: T): T {
	return spec;
}
