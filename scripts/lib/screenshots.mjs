// The README's pictures, made from the demo's screenshots (`npm run demo -- --screenshot`): cropped to what they show
// and written as small WebP files under media/screenshots/, which the .vsix ships (the installed README shows them).
import sharp from 'sharp';
import { join } from 'node:path';
import { ROOT } from '../host.mjs';

export const SCREENSHOT_DIR = join(ROOT, 'media', 'screenshots');

/**
 * What each picture keeps of its screenshot: `top` rows only (`height`), the trailing blank rows dropped (`trim`: the
 * side bar's empty space below the tree), the right edge cut (`width`), and the widest it may be once scaled (`max`).
 */
export const PICTURES = {
  demo: { width: 1340, max: 800 },
  live: { height: 475, max: 520 },
  actions: { height: 150, max: 520 },
  welcome: { trim: true, max: 520 },
  walkthrough: { max: 1000 },
  timeline: { max: 1000 },
  review: { height: 520, width: 1000, max: 700 },
  report: { height: 540, width: 1000, max: 700 },
  driver: { height: 430, max: 520 },
  'driver-timeline': { max: 1000 },
};

/** The last row (from the top) with anything on it but the background colour of the bottom-left corner, plus a margin. */
async function contentHeight(png) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x, y) => (y * info.width + x) * 3;
  const bg = at(8, info.height - 4);
  const differs = (i) => Math.abs(data[i] - data[bg]) + Math.abs(data[i + 1] - data[bg + 1]) + Math.abs(data[i + 2] - data[bg + 2]) > 24;
  // The panel's own borders (the outer rows and columns, the scroll bar) are not content.
  for (let y = info.height - 3; y >= 0; y--) {
    for (let x = 2; x < info.width - 16; x++) if (differs(at(x, y))) return Math.min(info.height, y + 12);
  }
  return info.height;
}

/** Writes media/screenshots/<name>.webp from a PNG screenshot; returns its size in bytes. */
export async function writePicture(name, png) {
  const spec = PICTURES[name];
  if (!spec) throw new Error(`no picture named ${name} (scripts/lib/screenshots.mjs PICTURES)`);
  const meta = await sharp(png).metadata();
  const height = Math.min(meta.height, spec.height ?? (spec.trim ? await contentHeight(png) : meta.height));
  const width = Math.min(meta.width, spec.width ?? meta.width);
  const out = join(SCREENSHOT_DIR, `${name}.webp`);
  const info = await sharp(png).extract({ left: 0, top: 0, width, height })
    .resize({ width: Math.min(width, spec.max), withoutEnlargement: true })
    .webp({ quality: 34, effort: 6 }).toFile(out);
  return info.size;
}
