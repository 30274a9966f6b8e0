// A small SVG line-plot writer (no dependency): one panel per metric, x = objects, y = the
// metric, each panel with its own scale and a dashed "linear from the first point" reference.

export interface Series {
  /** Panel title, with the unit. */
  title: string;
  points: Array<{ x: number; y: number }>;
  /** Draw y = y0 · x / x0 through the first point (the "no worse than linear" bound). */
  linearReference?: boolean;
}

const W = 320;
const H = 220;
const M = { left: 58, right: 12, top: 28, bottom: 36 };

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function fmt(v: number): string {
  if (v >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  return `${+v.toFixed(v < 10 ? 2 : 0)}`;
}

function panel(s: Series, ox: number, oy: number): string {
  const xs = s.points.map((p) => p.x);
  const xMax = Math.max(...xs, 1);
  const ref = s.linearReference && s.points.length ? s.points[0] : undefined;
  const refAt = (x: number): number => (ref && ref.x > 0 ? (ref.y * x) / ref.x : 0);
  const yMax = Math.max(...s.points.map((p) => p.y), ref ? refAt(xMax) : 0, 1e-9) * 1.1;
  const px = (x: number): number => ox + M.left + (x / xMax) * (W - M.left - M.right);
  const py = (y: number): number => oy + H - M.bottom - (y / yMax) * (H - M.top - M.bottom);
  const out: string[] = [];
  out.push(`<text x="${ox + W / 2}" y="${oy + 16}" text-anchor="middle" font-size="12" font-weight="bold">${esc(s.title)}</text>`);
  out.push(`<line x1="${px(0)}" y1="${py(0)}" x2="${px(xMax)}" y2="${py(0)}" stroke="#333"/>`);
  out.push(`<line x1="${px(0)}" y1="${py(0)}" x2="${px(0)}" y2="${py(yMax)}" stroke="#333"/>`);
  for (let i = 0; i <= 4; i++) {
    const y = (yMax / 4) * i;
    out.push(`<text x="${px(0) - 4}" y="${py(y) + 4}" text-anchor="end" font-size="10">${fmt(y)}</text>`);
    out.push(`<line x1="${px(0)}" y1="${py(y)}" x2="${px(xMax)}" y2="${py(y)}" stroke="#eee"/>`);
  }
  for (const x of xs) out.push(`<text x="${px(x)}" y="${py(0) + 14}" text-anchor="middle" font-size="10">${fmt(x)}</text>`);
  out.push(`<text x="${ox + W / 2}" y="${oy + H - 6}" text-anchor="middle" font-size="10">objects</text>`);
  if (ref) out.push(`<line x1="${px(0)}" y1="${py(0)}" x2="${px(xMax)}" y2="${py(refAt(xMax))}" stroke="#999" stroke-dasharray="4 3"/>`);
  const path = s.points.map((p, i) => `${i ? 'L' : 'M'}${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(' ');
  out.push(`<path d="${path}" fill="none" stroke="#1f77b4" stroke-width="2"/>`);
  for (const p of s.points) out.push(`<circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="3" fill="#1f77b4"><title>${fmt(p.x)}: ${fmt(p.y)}</title></circle>`);
  return out.join('\n');
}

/** The panels in a grid of `columns`, as one SVG document. */
export function renderPlot(title: string, series: readonly Series[], columns = 3): string {
  const rows = Math.ceil(series.length / columns);
  const width = columns * W;
  const height = rows * H + 30;
  const body = series.map((s, i) => panel(s, (i % columns) * W, 30 + Math.floor(i / columns) * H)).join('\n');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="14">${esc(title)} (dashed: linear from the first point)</text>`,
    body,
    '</svg>',
    '',
  ].join('\n');
}
