// Renders the app icon (resources/icon.svg) to every size the installers need, with Debian's
// Chromium: resources/icon.png (1024, which electron-builder turns into the macOS .icns itself),
// resources/icons/<N>x<N>.png (Linux: AppImage and deb take a folder of sizes) and
// resources/icon.ico (Windows and the NSIS installer). Run it after changing the SVG and commit
// the outputs: the build never renders icons, so it needs no browser.
//
//   node scripts/make-icons.ts
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const root = join(import.meta.dirname, '..');
const resources = join(root, 'resources');
const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
// Windows and NSIS read small icon entries most reliably as classic bitmaps; PNG entries are
// only the norm from 256 px (and keep the file small for the large ones).
const ICO_PNG_FROM = 128;

interface Rendered {
  size: number;
  png: Buffer;
  /** RGBA, top row first. */
  rgba: Buffer;
}

async function render(svg: string, sizes: number[]): Promise<Rendered[]> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const page = await browser.newPage();
    // The SVG is drawn at each target size (not scaled down from a bitmap), so small sizes
    // stay as sharp as a vector can be at that resolution.
    const images = await page.evaluate(async ({ svg, sizes }) => {
      const image = new Image();
      image.src = `data:image/svg+xml;base64,${btoa(svg)}`;
      await image.decode();
      return sizes.map((size) => {
        const canvas = document.createElement('canvas');
        canvas.width = size;
        canvas.height = size;
        const context = canvas.getContext('2d') as CanvasRenderingContext2D;
        context.drawImage(image, 0, 0, size, size);
        const data = context.getImageData(0, 0, size, size).data;
        let binary = '';
        for (const byte of data) binary += String.fromCharCode(byte);
        return { size, png: canvas.toDataURL('image/png').split(',')[1] as string, rgba: btoa(binary) };
      });
    }, { svg, sizes });
    return images.map((image) => ({ size: image.size, png: Buffer.from(image.png, 'base64'), rgba: Buffer.from(image.rgba, 'base64') }));
  } finally {
    await browser.close();
  }
}

/** A 32-bit bottom-up DIB as an ICO entry holds it: BGRA pixels, then an (unused) AND mask. */
function bitmapEntry({ size, rgba }: Rendered): Buffer {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8); // colour rows plus mask rows, as ICO requires
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const from = (y * size + x) * 4;
      const to = ((size - 1 - y) * size + x) * 4;
      pixels[to] = rgba[from + 2] as number;
      pixels[to + 1] = rgba[from + 1] as number;
      pixels[to + 2] = rgba[from] as number;
      pixels[to + 3] = rgba[from + 3] as number;
    }
  }
  const maskRowBytes = Math.ceil(size / 32) * 4;
  return Buffer.concat([header, pixels, Buffer.alloc(maskRowBytes * size)]);
}

/** ICO: a directory of entries, each a bitmap or (Vista and later) a whole PNG file. */
function encodeIco(images: Rendered[]): Buffer {
  const entries = images.map((image) => ({ size: image.size, data: image.size >= ICO_PNG_FROM ? image.png : bitmapEntry(image) }));
  const directory = Buffer.alloc(6 + 16 * entries.length);
  directory.writeUInt16LE(0, 0);
  directory.writeUInt16LE(1, 2); // 1 = icon (2 would be a cursor)
  directory.writeUInt16LE(entries.length, 4);
  let offset = directory.length;
  entries.forEach((entry, index) => {
    const at = 6 + 16 * index;
    directory.writeUInt8(entry.size >= 256 ? 0 : entry.size, at); // 0 means 256
    directory.writeUInt8(entry.size >= 256 ? 0 : entry.size, at + 1);
    directory.writeUInt8(0, at + 2);
    directory.writeUInt8(0, at + 3);
    directory.writeUInt16LE(1, at + 4);
    directory.writeUInt16LE(32, at + 6);
    directory.writeUInt32LE(entry.data.length, at + 8);
    directory.writeUInt32LE(offset, at + 12);
    offset += entry.data.length;
  });
  return Buffer.concat([directory, ...entries.map((entry) => entry.data)]);
}

async function main(): Promise<void> {
  const svg = readFileSync(join(resources, 'icon.svg'), 'utf8');
  const sizes = [...new Set([...LINUX_SIZES, ...ICO_SIZES])].sort((a, b) => a - b);
  const rendered = await render(svg, sizes);
  const bySize = new Map(rendered.map((image) => [image.size, image]));

  mkdirSync(join(resources, 'icons'), { recursive: true });
  for (const size of LINUX_SIZES) writeFileSync(join(resources, 'icons', `${size}x${size}.png`), (bySize.get(size) as Rendered).png);
  writeFileSync(join(resources, 'icon.png'), (bySize.get(1024) as Rendered).png);
  writeFileSync(join(resources, 'icon.ico'), encodeIco(ICO_SIZES.map((size) => bySize.get(size) as Rendered)));
  console.log(`icons written: resources/icon.png, resources/icon.ico (${ICO_SIZES.join(', ')}), resources/icons/ (${LINUX_SIZES.join(', ')})`);
}

await main();
