// Upstream's responsewriters sanitizer: error text written to clients must not look like HTML
// (quotes are fine). Applied to the parts of a message built from request data.
export function sanitizeErrorText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
