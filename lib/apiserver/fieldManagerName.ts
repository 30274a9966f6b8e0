// The manager a non-apply write is recorded under (upstream's managerOrUserAgent): the
// fieldManager option, else the User-Agent up to its first "/", without non-printable
// characters and cut to the 128-byte limit ("unknown" is substituted later when empty).
import { goIsPrint } from '../machinery/goStrconv';
import { fieldManagerMaxLength } from '../machinery/validation/objectMeta';

export function managerOrUserAgent(fieldManager: string, userAgent: string): string {
  if (fieldManager) return fieldManager;
  let out = '';
  let bytes = 0;
  for (const ch of userAgent.split('/')[0]) {
    if (!goIsPrint(ch.codePointAt(0) as number)) continue;
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > fieldManagerMaxLength) break;
    out += ch;
    bytes += n;
  }
  return out;
}
