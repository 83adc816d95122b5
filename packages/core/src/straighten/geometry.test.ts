import { describe, expect, it } from 'vitest';
import { keepWholeReason, orderCorners, project, rectToQuad, straightenedSize } from './geometry.js';
import type { Quad } from './geometry.js';

const tilted: Quad = [
  { x: 120, y: 80 },
  { x: 410, y: 60 },
  { x: 450, y: 430 },
  { x: 90, y: 400 },
];

describe('orderCorners', () => {
  it('orders any shuffle top-left, top-right, bottom-right, bottom-left', () => {
    const [a, b, c, d] = tilted;
    for (const shuffle of [
      [c, a, d, b],
      [d, c, b, a],
      [b, d, a, c],
    ])
      expect(orderCorners(shuffle)).toEqual(tilted);
  });

  it('keeps the names of a page turned by 30°', () => {
    const turn = (x: number, y: number) => {
      const a = (30 * Math.PI) / 180;
      return { x: 300 + x * Math.cos(a) - y * Math.sin(a), y: 300 + x * Math.sin(a) + y * Math.cos(a) };
    };
    const corners = [turn(-100, -130), turn(100, -130), turn(100, 130), turn(-100, 130)];
    expect(orderCorners([corners[2]!, corners[0]!, corners[3]!, corners[1]!])).toEqual(corners);
  });

  it('refuses anything but four points', () => {
    expect(() => orderCorners(tilted.slice(0, 3))).toThrow(RangeError);
  });
});

describe('rectToQuad', () => {
  it('takes the rectangle corners to the quad corners', () => {
    const m = rectToQuad(tilted, 850, 1100);
    const expected = [
      [0, 0],
      [850, 0],
      [850, 1100],
      [0, 1100],
    ] as const;
    expected.forEach(([x, y], i) => {
      const p = project(m, x, y);
      expect(p.x).toBeCloseTo(tilted[i]!.x, 6);
      expect(p.y).toBeCloseTo(tilted[i]!.y, 6);
    });
  });

  it('keeps straight lines straight and maps the centre to where the diagonals cross', () => {
    const m = rectToQuad(tilted, 100, 100);
    const centre = project(m, 50, 50);
    // The diagonals of the quad cross at the image of the rectangle's centre.
    const [p0, p1, p2, p3] = tilted;
    const t =
      ((p1.x - p0.x) * (p3.y - p1.y) - (p1.y - p0.y) * (p3.x - p1.x)) /
      ((p2.x - p0.x) * (p3.y - p1.y) - (p2.y - p0.y) * (p3.x - p1.x));
    expect(centre.x).toBeCloseTo(p0.x + t * (p2.x - p0.x), 6);
    expect(centre.y).toBeCloseTo(p0.y + t * (p2.y - p0.y), 6);
  });

  it('is a plain scale for an upright rectangle', () => {
    const m = rectToQuad(
      [
        { x: 10, y: 20 },
        { x: 210, y: 20 },
        { x: 210, y: 420 },
        { x: 10, y: 420 },
      ],
      100,
      200,
    );
    expect(project(m, 50, 100)).toEqual({ x: 110, y: 220 });
  });
});

describe('straightenedSize', () => {
  it('takes a foreshortened Letter page for Letter, by its longer side', () => {
    // A Letter page tilted away: its height looks 20 % shorter than it is.
    const quad: Quad = [
      { x: 100, y: 100 },
      { x: 950, y: 100 },
      { x: 950, y: 980 },
      { x: 100, y: 980 },
    ];
    expect(straightenedSize(quad, 1700)).toEqual({ width: 1314, height: 1700 });
  });

  it('keeps the proportions of something that is no paper size (a receipt)', () => {
    const quad: Quad = [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
      { x: 100, y: 400 },
      { x: 0, y: 400 },
    ];
    expect(straightenedSize(quad, 800)).toEqual({ width: 200, height: 800 });
  });

  it('lies landscape when the outline is wider than tall', () => {
    const quad: Quad = [
      { x: 0, y: 0 },
      { x: 1100, y: 0 },
      { x: 1100, y: 850 },
      { x: 0, y: 850 },
    ];
    expect(straightenedSize(quad, 1100)).toEqual({ width: 1100, height: 850 });
  });
});

describe('keepWholeReason', () => {
  it('crops to a plausible page that stands out', () => {
    expect(keepWholeReason(tilted, 512, 512, 80)).toBeNull();
  });

  it('keeps the whole photo when nothing was found or page and ground look alike', () => {
    expect(keepWholeReason(null, 512, 512, 80)).toBe('notFound');
    expect(keepWholeReason(tilted, 512, 512, 10)).toBe('lowContrast');
  });

  it('keeps the whole photo for shapes no photographed page has', () => {
    const tiny: Quad = [
      { x: 10, y: 10 },
      { x: 60, y: 10 },
      { x: 60, y: 60 },
      { x: 10, y: 60 },
    ];
    const dart: Quad = [
      { x: 0, y: 0 },
      { x: 500, y: 250 },
      { x: 510, y: 260 },
      { x: 250, y: 500 },
    ];
    const crossed: Quad = [tilted[0], tilted[2], tilted[1], tilted[3]];
    const outside: Quad = [{ x: -60, y: 10 }, tilted[1], tilted[2], tilted[3]];
    for (const quad of [tiny, dart, crossed, outside])
      expect(keepWholeReason(quad, 512, 512, 80)).toBe('notAPage');
  });
});
