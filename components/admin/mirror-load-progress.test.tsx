import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { withIntl } from '@/tests/intl';
import { MirrorLoadProgress } from './mirror-load-progress';

const render = (node: React.ReactNode, locale: 'en' | 'sv' = 'en') => renderToStaticMarkup(withIntl(node, locale));

describe('the admin dashboard’s load progress (issue 49)', () => {
  it('says how many of the systems are loaded and about how long the rest takes, with a bar', () => {
    const html = render(<MirrorLoadProgress progress={{ total: 1_000, loaded: 612, remaining: 388, etaSeconds: 582, perMinute: 40 }} />);
    expect(html).toContain('612 of 1,000 systems loaded, about 10 min left.');
    expect(html).toMatch(/role="progressbar" aria-label="Systems loaded" aria-valuemin="0" aria-valuemax="1000" aria-valuenow="612" aria-valuetext="612 of 1,000"/);
  });

  it('in Swedish, and in hours, under a minute or not known yet', () => {
    expect(render(<MirrorLoadProgress progress={{ total: 1_000, loaded: 12, remaining: 988, etaSeconds: 2 * 3600, perMinute: 8 }} />, 'sv')).toContain('12 av 1');
    expect(render(<MirrorLoadProgress progress={{ total: 1_000, loaded: 12, remaining: 988, etaSeconds: 2 * 3600, perMinute: 8 }} />, 'sv')).toContain('cirka 2 tim kvar');
    expect(render(<MirrorLoadProgress progress={{ total: 10, loaded: 9, remaining: 1, etaSeconds: 20, perMinute: 3 }} />)).toContain('less than a minute left');
    expect(render(<MirrorLoadProgress progress={{ total: 10, loaded: 0, remaining: 10, etaSeconds: null, perMinute: null }} />)).toContain('0 of 10 systems loaded, time left not known yet.');
  });

  it('is one line once every system is loaded, and nothing without systems', () => {
    const done = render(<MirrorLoadProgress progress={{ total: 1_000, loaded: 1_000, remaining: 0, etaSeconds: 0, perMinute: null }} />);
    expect(done).toContain('All 1,000 systems are loaded.');
    expect(done).not.toContain('progressbar');
    expect(render(<MirrorLoadProgress progress={{ total: 0, loaded: 0, remaining: 0, etaSeconds: 0, perMinute: null }} />)).toBe('');
  });
});
