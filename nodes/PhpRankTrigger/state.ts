import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger keeps in the workflow's static data between polls: the version, what it is kept
 * for (`watch`: the event and the filters), and the event's own part (its `encode`).
 */
export interface StoredState extends IDataObject {
	version: 1;
	watch: string;
}

export const storedState = (watch: string, part: IDataObject): StoredState => ({
	version: 1,
	watch,
	...part,
});

/** A copy of the state of the current watch, or undefined on the first poll (or after the filters changed). */
export function readState(staticData: IDataObject, watch: string): StoredState | undefined {
	return staticData.version === 1 && staticData.watch === watch
		? (JSON.parse(JSON.stringify(staticData)) as StoredState)
		: undefined;
}

/** Replaces the stored state; an unchanged state is not written, so n8n has nothing to save. */
export function writeState(staticData: IDataObject, state: StoredState): void {
	if (JSON.stringify(staticData) === JSON.stringify(state)) return;
	for (const key of Object.keys(staticData)) delete staticData[key];
	Object.assign(staticData, state);
}
