// The committed icons: every size the three platforms' targets read, in the formats they read.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const RESOURCES = join(import.meta.dirname, '..', '..', '..', 'resources');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(file: Buffer): { width: number; height: number } {
  expect(file.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  return { width: file.readUInt32BE(16), height: file.readUInt32BE(20) };
}

describe('icons', () => {
  it('has a 1024 px icon.png (electron-builder makes the macOS .icns from it)', () => {
    expect(pngSize(readFileSync(join(RESOURCES, 'icon.png')))).toEqual({ width: 1024, height: 1024 });
  });

  it('has every Linux size', () => {
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) {
      expect(pngSize(readFileSync(join(RESOURCES, 'icons', `${size}x${size}.png`)))).toEqual({ width: size, height: size });
    }
  });

  it('has a Windows icon.ico with 16 to 256 px entries (bitmaps when small, PNG when large)', () => {
    const ico = readFileSync(join(RESOURCES, 'icon.ico'));
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const entries = Array.from({ length: count }, (_, index) => {
      const at = 6 + 16 * index;
      const size = ico.readUInt8(at) || 256;
      const data = ico.subarray(ico.readUInt32LE(at + 12), ico.readUInt32LE(at + 12) + ico.readUInt32LE(at + 8));
      return { size, bits: ico.readUInt16LE(at + 6), png: data.subarray(0, 8).equals(PNG_SIGNATURE), data };
    });
    expect(entries.map((entry) => entry.size)).toEqual([16, 24, 32, 48, 64, 128, 256]);
    for (const entry of entries) {
      expect(entry.bits).toBe(32);
      if (entry.png) expect(pngSize(entry.data)).toEqual({ width: entry.size, height: entry.size });
      else expect([entry.data.readUInt32LE(0), entry.data.readInt32LE(4), entry.data.readInt32LE(8)]).toEqual([40, entry.size, entry.size * 2]);
    }
    expect(entries.filter((entry) => entry.png).map((entry) => entry.size)).toEqual([128, 256]);
  });
});
