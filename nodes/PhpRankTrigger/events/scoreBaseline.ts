import type { IDataObject } from 'n8n-workflow';

import { checkStates, classify } from '../../PhpRank/report';

/*
 * Score Changed's memory of one report as one short string (format and figures: ARCHITECTURE.md,
 * "Score Changed's state"), so that the static data n8n saves on every poll stays small.
 */

/**
 * Where the report stood against Below Score at its last reading: not below (`no`), below after a
 * Below Score event (`fired`: a recovery is due), below without one (`quiet`).
 */
export type Below = 'no' | 'fired' | 'quiet';
const BELOW_MARK: Record<Below, string> = { no: '', fired: '!', quiet: '_' };

export interface Baseline {
	score: number | null;
	generatedAt: string | null;
	/** Pass or fail of each check the report had, by check name. */
	passed: Map<string, boolean>;
	below: Below;
	/** The last up to TREND_KEPT scores seen, oldest first, whole points: the baseline's alone until one differs. */
	trend: number[];
}

const SEPARATOR = ',';
/** Scores an event's trend shows; the state keeps one fewer (the event's own reading completes it). */
export const TREND_LENGTH = 8;
const TREND_KEPT = TREND_LENGTH - 1;
/** A trend's scores (0-100) as digits 1-101 of one number: 7 scores stay below 2^53. */
const TREND_BASE = 102;

const DIGITS_62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The scores as one number in base 102 (each score + 1 a digit, the newest most significant),
 * written in base 62 (digits, then lower and upper case letters): 7 scores take at most 8
 * characters instead of 14.
 */
export function encodeTrend(scores: readonly number[]): string {
	let value = 0;
	for (let index = scores.length - 1; index >= 0; index--)
		value = value * TREND_BASE + scores[index] + 1;
	let text = '';
	for (; value > 0; value = Math.floor(value / 62)) text = DIGITS_62[value % 62] + text;
	return text;
}

export function decodeTrend(text: string): number[] {
	let value = 0;
	for (const char of text) value = value * 62 + DIGITS_62.indexOf(char);
	const scores: number[] = [];
	for (; value > 0; value = Math.floor(value / TREND_BASE)) scores.push((value % TREND_BASE) - 1);
	return scores;
}

/** A score as the trend keeps it: whole points, 0-100. */
export const trendScore = (score: number): number => Math.min(100, Math.max(0, Math.round(score)));

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

/** The score field: the baseline's score, the Below Score mark, the trend when it says more than the score. */
function scoreField(tenths: string, below: Below, trend: readonly number[]): string {
	const kept = trend.slice(-TREND_KEPT);
	const alone =
		tenths === ''
			? kept.length === 0
			: kept.length === 1 && kept[0] === trendScore(Number.parseInt(tenths, 36) / 10);
	return tenths + BELOW_MARK[below] + (alone ? '' : `.${encodeTrend(kept)}`);
}

/**
 * One report's reading as a baseline string, with the trend seen up to it (by default the
 * reading's score alone). New check names are appended to `table` (the state's check table,
 * changed in place).
 */
export function encodeBaseline(
	record: IDataObject,
	table: string[],
	below: Below,
	trend?: readonly number[],
): string {
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
	const checks =
		table.length.toString(36) + (absent.length ? `-${bitsOf(absent).toString(36)}` : '');
	const tenths = score === null ? '' : Math.round(score * 10).toString(36);
	return [
		scoreField(tenths, below, trend ?? (score === null ? [] : [trendScore(score)])),
		encodeDate(record.generated_at),
		bitsOf(failed).toString(36),
		checks,
	].join(SEPARATOR);
}

const SCORE_FIELD = /^([0-9a-z]*)([!_]?)(?:\.([0-9a-zA-Z]+))?$/;

/** The same baseline with another Below Score mark and trend. */
export function withBelowAndTrend(encoded: string, below: Below, trend: readonly number[]): string {
	const split = encoded.indexOf(SEPARATOR);
	const tenths = SCORE_FIELD.exec(encoded.slice(0, split))?.[1] ?? '';
	return scoreField(tenths, below, trend) + encoded.slice(split);
}

/** A baseline string read back; undefined when it is not one (the report then gets a new baseline). */
export function decodeBaseline(encoded: unknown, table: readonly string[]): Baseline | undefined {
	if (typeof encoded !== 'string') return undefined;
	const fields = encoded.split(SEPARATOR);
	if (fields.length < 4) return undefined;
	const [scoreText, failedText, checksText] = [
		fields[0],
		fields[fields.length - 2],
		fields[fields.length - 1],
	];
	// A date kept as text (`~…`) may itself hold the separator.
	const dateText = fields.slice(1, -2).join(SEPARATOR);
	const scoreParts = SCORE_FIELD.exec(scoreText);
	const [countText, absentText] = checksText.split('-');
	const count = Number.parseInt(countText, 36);
	if (!scoreParts || !/^[0-9a-z]+$/.test(failedText) || !(count <= table.length)) return undefined;
	const [, tenths, mark, trendText] = scoreParts;
	const score = tenths === '' ? null : Number.parseInt(tenths, 36) / 10;
	const failed = parseBase36(failedText);
	const absent = absentText ? parseBase36(absentText) : BigInt(0);
	const passed = new Map<string, boolean>();
	for (let index = 0; index < count; index++) {
		if (!hasBit(absent, index)) passed.set(table[index], !hasBit(failed, index));
	}
	return {
		score,
		generatedAt: decodeDate(dateText),
		passed,
		below: mark === '!' ? 'fired' : mark === '_' ? 'quiet' : 'no',
		trend: trendText ? decodeTrend(trendText) : score === null ? [] : [trendScore(score)],
	};
}

/** The baseline as a report record, for `changesBetween`. */
export function baselineRecord(baseline: Baseline): {
	result: number | null;
	results: IDataObject;
	generated_at: string | null;
} {
	const results: IDataObject = {};
	for (const [check, passed] of baseline.passed) results[check] = { passed };
	return { result: baseline.score, results, generated_at: baseline.generatedAt };
}
