// Renders every app icon and the favicon from assets/icon.svg into public/icons/ (generated,
// not committed). Run by the build (scripts/build-hash.mjs) and by `npm run dev`.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Resvg } from '@resvg/resvg-js';

export const ICON_SOURCES = ['assets/icon.svg', 'assets/icons.json', 'scripts/icons.mjs'];
export const ICONS_DIR = path.join('public', 'icons');

/** The "any" icons: the full-bleed source with rounded corners, as platforms without masks show it. */
function roundedVariant(source) {
  const inner = source.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><defs><clipPath id="round"><rect width="512" height="512" rx="112"/></clipPath></defs><g clip-path="url(#round)">${inner}</g></svg>\n`;
}

const png = (svg, size) => new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();

/** An .ico holding PNG images (every browser since IE Vista-era reads PNG entries). */
function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, data }, i) => {
    const e = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, e);
    header.writeUInt8(size >= 256 ? 0 : size, e + 1);
    header.writeUInt16LE(1, e + 4);
    header.writeUInt16LE(32, e + 6);
    header.writeUInt32LE(data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.data)]);
}

export function generateIcons(root = process.cwd()) {
  const source = readFileSync(path.join(root, 'assets/icon.svg'), 'utf8');
  const sizes = JSON.parse(readFileSync(path.join(root, 'assets/icons.json'), 'utf8'));
  const rounded = roundedVariant(source);
  const out = path.join(root, ICONS_DIR);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const write = (name, data) => writeFileSync(path.join(out, name), data);
  write('icon.svg', rounded);
  for (const s of sizes.any) write(`icon-${s}.png`, png(rounded, s));
  for (const s of sizes.maskable) write(`maskable-${s}.png`, png(source, s));
  // iOS rounds the corners itself and shows transparency as black: the full-bleed source.
  for (const s of sizes.apple) write(s === 180 ? 'apple-touch-icon.png' : `apple-touch-icon-${s}.png`, png(source, s));
  write('favicon.ico', ico(sizes.favicon.map((s) => ({ size: s, data: png(rounded, s) }))));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) generateIcons();
