import type { IDataObject } from 'n8n-workflow';

import { checkStates, classify } from '../PhpRank/operations/output';

/*
 * Score Changed keeps, per watched report, what `changesBetween` needs of the report as it was at
 * its baseline (the reading the trigger last fired for, or first saw), in one short string, so
 * that the static data n8n saves with the workflow on every poll stays small (28.5 bytes a
 * report with everything else in the state, measured at 10,000 seeded reports by
 * test/trigger/scoreChanged.test.ts, which fails above 40):
 *
 *   "<score>[!],<generated_at>,<failed>,<checks>[-<absent>]"      e.g. "1o!,t9xkqe,2bk1,q"
 *
 * - score: the baseline's score in tenths, base 36 ('' when it had none); `!` when the report was
 *   below Below Score at its last reading (the flag that keeps Below Score from firing again until
 *   the report has been at or above it);
 * - generated_at: seconds since 1970 in base 36 when phpRank's format (`…:02.000000Z`) gives the
 *   same text back, else the text itself after `~` ('' when it had none);
 * - failed: a bitmask over the state's check table (`checks`, kept once per state and only ever
 *   appended to) of the checks that failed, base 36;
 * - checks: how many entries the table had when the string was written, base 36: the report had
 *   exactly those checks (a check added to the table later, e.g. after a phpRank upgrade, was not
 *   in it), less the `absent` bitmask when some were missing.
 * Each check's importance is not kept: `changesBetween` takes it from the newer reading.
 */

export interface Baseline {
	score: number | null;
	generatedAt: string | null;
	/** Pass or fail of each check the report had, by check name. */
	passed: Map<string, boolean>;
	/** The report was below Below Score at its last reading. */
	below: boolean;
}

const SEPARATOR = ',';

function bitsOf(indexes: Iterable<number>): bigint {
	let mask = BigInt(0);
	for (const index of indexes) mask |= BigInt(1) << BigInt(index);
	return mask;
}

function parseBase36(text: string): bigint {
	let value = BigInt(0);
	const base = BigInt(36);
	for (const char of text) value = value * base + BigInt(Number.parseInt(char, 36));
	return value;
}

const hasBit = (mask: bigint, index: number) => ((mask >> BigInt(index)) & BigInt(1)) === BigInt(1);

/** `2026-01-31T09:15:02.000000Z`: how phpRank (Laravel) writes dates. */
export function phpRankDate(seconds: number): string {
	return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '.000000Z');
}

function encodeDate(value: unknown): string {
	if (typeof value !== 'string' || value === '') return '';
	const milliseconds = Date.parse(value);
	if (Number.isFinite(milliseconds) && milliseconds % 1000 === 0 && milliseconds >= 0) {
		const seconds = milliseconds / 1000;
		if (phpRankDate(seconds) === value) return seconds.toString(36);
	}
	return `~${value}`;
}

function decodeDate(text: string): string | null {
	if (text === '') return null;
	if (text.startsWith('~')) return text.slice(1);
	return phpRankDate(Number.parseInt(text, 36));
}

/**
 * One report's reading as a baseline string. New check names are appended to `table` (the
 * state's check table, changed in place).
 */
export function encodeBaseline(record: IDataObject, table: string[], below: boolean): string {
	const { score } = classify(record.result);
	const states = checkStates(record.results);
	for (const name of states.keys()) if (!table.includes(name)) table.push(name);
	const failed: number[] = [];
	const absent: number[] = [];
	table.forEach((name, index) => {
		const state = states.get(name);
		if (!state) absent.push(index);
		else if (!state.passed) failed.push(index);
	});
	const checks = table.length.toString(36) + (absent.length ? `-${bitsOf(absent).toString(36)}` : '');
	return [
		(score === null ? '' : Math.round(score * 10).toString(36)) + (below ? '!' : ''),
		encodeDate(record.generated_at),
		bitsOf(failed).toString(36),
		checks,
	].join(SEPARATOR);
}

/** The string with the Below Score flag set or cleared, the rest unchanged. */
export function withBelowFlag(encoded: string, below: boolean): string {
	const split = encoded.indexOf(SEPARATOR);
	const score = encoded.slice(0, split).replace('!', '');
	return (below ? `${score}!` : score) + encoded.slice(split);
}

/** A baseline string read back; undefined when it is not one (the report then gets a new baseline). */
export function decodeBaseline(encoded: unknown, table: readonly string[]): Baseline | undefined {
	if (typeof encoded !== 'string') return undefined;
	const fields = encoded.split(SEPARATOR);
	if (fields.length < 4) return undefined;
	const [scoreText, failedText, checksText] = [fields[0], fields[fields.length - 2], fields[fields.length - 1]];
	// A date kept as text (`~…`) may itself hold the separator.
	const dateText = fields.slice(1, -2).join(SEPARATOR);
	const below = scoreText.endsWith('!');
	const tenths = scoreText.replace('!', '');
	const [countText, absentText] = checksText.split('-');
	const count = Number.parseInt(countText, 36);
	if (!/^[0-9a-z]*$/.test(tenths) || !/^[0-9a-z]+$/.test(failedText) || !(count <= table.length)) return undefined;
	const failed = parseBase36(failedText);
	const absent = absentText ? parseBase36(absentText) : BigInt(0);
	const passed = new Map<string, boolean>();
	for (let index = 0; index < count; index++) {
		if (!hasBit(absent, index)) passed.set(table[index], !hasBit(failed, index));
	}
	return {
		score: tenths === '' ? null : Number.parseInt(tenths, 36) / 10,
		generatedAt: decodeDate(dateText),
		passed,
		below,
	};
}

/** The baseline as a report record, for `changesBetween`. */
export function baselineRecord(baseline: Baseline): { result: number | null; results: IDataObject; generated_at: string | null } {
	const results: IDataObject = {};
	for (const [check, passed] of baseline.passed) results[check] = { passed };
	return { result: baseline.score, results, generated_at: baseline.generatedAt };
}
