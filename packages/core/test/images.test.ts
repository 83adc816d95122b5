// The fixtures' own check: the converter tests below are only as good as these photos.
import { it, expect } from 'vitest';
import sharp from 'sharp';
import { makePhoto } from './images.js';
import { cornerMarkers, UPRIGHT } from './pdf-inspect.js';
it('test photos show upright, markers in place, after applying their EXIF orientation', async () => {
  for (const fmt of ['jpeg', 'png', 'webp'] as const)
    for (let o = 1; o <= 8; o++) {
      const bytes = await makePhoto(fmt, 120, 80, o);
      const up = await sharp(bytes).rotate().jpeg().toBuffer({ resolveWithObject: true });
      expect([fmt, o, up.info.width, up.info.height, await cornerMarkers(up.data)]).toEqual([
        fmt,
        o,
        120,
        80,
        UPRIGHT,
      ]);
      expect((await sharp(bytes).metadata()).orientation ?? 1).toBe(o);
    }
});
