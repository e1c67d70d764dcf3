import type { IDataObject } from 'n8n-workflow';

/*
 * What the request layer needs to know about a resource, declared by the resource itself beside
 * its descriptions (descriptions/<resource>/<resource>.spec.ts) as data, and handed to every
 * request and list read. Nothing in transport/ or operations/ names a resource, a path, a key or
 * a list order: messages, answer checks, list order, timeouts and secrets all come from here.
 */
export interface ResourceSpec {
	/** The noun in messages: `report`, `project`. */
	noun: string;
	/** Its plural: `reports`. */
	plural: string;
	/** The collection under /api/v1: `/reports`. A path below it names one record by its key. */
	path: string;
	/** The field that identifies a record in a list: `id`, `project`. */
	key: string;
	/** The key as a user knows it, for "check the …": `report ID`, `project name`. */
	keyName: string;
	/** Whether messages quote the key: `project "example.com"` rather than `report 12`. */
	quoteKey?: boolean;
	/** What `data` of a single-record answer must hold: its key, in a form this pattern matches; and that, in words. */
	record?: { describe: string; key: RegExp };
	/** The body field a create names its record by (`url`): a failed create says which one. */
	createdFrom?: string;
	/**
	 * The node's parameters that hold secrets (paths into the parameters, e.g. ['updateFields',
	 * 'password']). They are masked wherever n8n would carry the node: errors, logs. Every resource
	 * of a node lists all of the node's, so that an error about one resource masks the others' too.
	 */
	secretParameters?: string[][];
	/**
	 * The list query that sorts records by key, highest first, with new records created only at the
	 * top, when phpRank does that with these values or without them (its default order). The paging
	 * rule is then exact on a list that moves; readers that want the newest records send it.
	 */
	newestFirst?: IDataObject;
	/** The order a picker lists records in. */
	pickerOrder?: IDataObject;
	/** The field phpRank's `search` looks in (`search_by`). */
	searchBy?: string;
	/** Requests that make phpRank work for seconds (an analysis): a method, and body values it sends. They get the longer timeout. */
	slowRequests?: Array<{ method: string; body?: IDataObject }>;
}

/** A resource's spec, typed as one (a plain object: nothing is registered). */
export function defineResource<T extends ResourceSpec>(spec: T): T {
	return spec;
}
