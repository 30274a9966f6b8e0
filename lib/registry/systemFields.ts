// Server-owned ObjectMeta fields on create and update (upstream's rest.BeforeCreate/BeforeUpdate).
import { randomBytes, randomUUID } from 'node:crypto';
import type { ApiObject, ObjectMeta } from '../api';

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function formatTime(d: Date): string {
  // Every write formats "now" (creationTimestamp, managedFields' time): remember the last second.
  const second = Math.floor(d.getTime() / 1000);
  if (second === lastSecond) return lastText;
  const iso = d.toISOString(); // throws on an invalid date, as before
  // Years 0–9999 give YYYY-MM-DDTHH:mm:ss.sssZ: cut the milliseconds without a regex.
  lastText = iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
  lastSecond = second;
  return lastText;
}
let lastSecond = Number.NaN;
let lastText = '';

// Upstream's alphabet for generated names: no vowels, no confusable digits.
const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
const randomSuffixLength = 5;
const maxGeneratedNameLength = 63 - randomSuffixLength;

export function generateName(base: string): string {
  const prefix = base.length > maxGeneratedNameLength ? base.slice(0, maxGeneratedNameLength) : base;
  const bytes = randomBytes(randomSuffixLength);
  let suffix = '';
  for (const b of bytes) suffix += alphabet[b % alphabet.length];
  return prefix + suffix;
}

export function fillCreateFields(obj: ApiObject, now: Date): void {
  const m: ObjectMeta = (obj.metadata ??= {});
  m.uid = randomUUID();
  m.creationTimestamp = formatTime(now);
  delete m.deletionTimestamp;
  delete m.deletionGracePeriodSeconds;
  delete m.selfLink;
  if (m.generation !== undefined) m.generation = 1;
}

/** Fields an update may never change are carried over from the stored object. */
export function carryUpdateFields(obj: ApiObject, old: ApiObject): void {
  const m: ObjectMeta = (obj.metadata ??= {});
  const o: ObjectMeta = old.metadata ?? {};
  if (o.generation !== undefined) m.generation = o.generation;
  else delete m.generation;
  if (!m.uid) m.uid = o.uid;
  if (o.creationTimestamp) m.creationTimestamp = o.creationTimestamp;
  if (o.deletionTimestamp) m.deletionTimestamp = o.deletionTimestamp;
  if (o.deletionGracePeriodSeconds !== undefined && m.deletionGracePeriodSeconds === undefined) {
    m.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds;
  }
  delete m.selfLink;
}
