import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';

import type { ResultClass } from '../../PhpRank/api';

/** What every event is given besides its own parameters: the filters, Simplify and the report link. */
export interface Common {
	project?: string;
	result?: ResultClass;
	simplify: boolean;
	/** Output: One Item per Site (perSite.ts), for the events that have `siteLine`. */
	perSite: boolean;
	/** A report's page on the instance (`recordLink`): every report item's `link`. */
	link: (id: unknown) => string;
}

export type Settings<P> = Common & P;

/** What one poll may spend. */
export interface PollAllowance {
	requests: number;
	/** Half the poll's time budget is spent: no more requests. */
	stopEarly: () => boolean;
}

/** One event a poll found: the report it is about and what the event says of it. */
export interface Found<D> {
	record: IDataObject;
	detail: D;
}

/** What one poll of an event read: the events found, oldest first, and the memory to keep. */
export interface Reading<M, D> {
	found: Array<Found<D>>;
	memory: M;
}

/**
 * One trigger event (ARCHITECTURE.md, "Adding a trigger event"). P: its parameters; M: what it
 * keeps between polls; D: what one of its events says besides the report.
 */
export interface TriggerEvent<P = unknown, M = unknown, D = unknown> {
	/** The Event option's value: stored in users' workflows, never renamed. */
	value: string;
	name: string;
	description: string;
	subtitle: string;
	/** Its fields in the order shown; a field object several events list is shown once for all. */
	fields: INodeProperties[];
	/** What the Result filter means for it, added to that filter's description. */
	resultNote?: string;
	/** phpRank applies the Result filter to the list it reads (else the event filters after comparing). */
	listByResult: boolean;
	/** Its parameters, checked before any request. */
	parameters(ctx: IPollFunctions): P;
	/** What its memory holds for besides the event and the filters: when it changes, it starts over. */
	watch?(settings: Settings<P>): unknown[];
	/** Its part of the static data: read back, and written (keys in a stable order). */
	decode(stored: IDataObject): M;
	encode(memory: M): IDataObject;
	/** One poll. Without a memory (the first poll) it only notes where things stand: its events are dropped. */
	read(
		this: IPollFunctions,
		settings: Settings<P>,
		memory: M | undefined,
		allowance: PollAllowance,
	): Promise<Reading<M, D>>;
	/** One event as output, besides `event`. */
	item(settings: Settings<P>, found: Found<D>): IDataObject;
	/**
	 * One found event as a line of One Item per Site's `events`, from its simplified item (which has
	 * `url`, `score` and `reason`). Only the events that have it show the Output option.
	 */
	siteLine?(item: IDataObject): string;
	/** The reasons its events can carry with these settings (the sample's note names them). */
	reasons?(settings: Settings<P>): string[];
	/** Fetch Test Event: a made-up detail for the newest report, and what of it is made up. */
	sample(settings: Settings<P>, record: IDataObject): { detail: D; madeUp?: string };
}
