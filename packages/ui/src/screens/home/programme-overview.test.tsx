import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { UploadsChart } from './programme-overview';

const NOW = Date.parse('2026-11-26T15:00:00Z');

/** The text a sighted person reads, tags dropped. */
const visibleText = (html: string) =>
  html
    .replace(/<title>.*?<\/title>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('uploads per day chart', () => {
  it('prints its scale, dates and busiest day, readable without hovering a bar', () => {
    const html = renderToStaticMarkup(
      <UploadsChart
        perDay={[
          { day: '2026-11-20', count: 5 },
          { day: '2026-11-25', count: 2 },
        ]}
        now={NOW}
      />,
    );
    expect(visibleText(html)).toBe(
      '5 0 Oct 28, 2026 Nov 12, 2026 Nov 26, 2026 7 documents in 30 days; most on Nov 20, 2026 (5).',
    );
    expect(html).toContain(
      'aria-label="Documents uploaded per day, last 30 days: 7 in all, most on Nov 20, 2026 (5)."',
    );
  });

  it('says so when nothing was uploaded', () => {
    const html = renderToStaticMarkup(<UploadsChart perDay={[]} now={NOW} />);
    expect(visibleText(html)).toContain('No documents uploaded in the last 30 days.');
    expect(html).toContain('aria-label="Documents uploaded per day, last 30 days: none."');
  });
});
