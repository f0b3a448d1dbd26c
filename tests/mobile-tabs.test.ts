import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MobileTabs } from '../app/files/_components/mobile-tabs';

const tabs = ['Upload', 'Shares', 'Settings'].map((label) => ({
  id: label.toLowerCase(),
  label,
  icon: createElement('svg', { viewBox: '0 0 24 24' }),
  panel: createElement('p', null, `${label} panel`),
}));

const render = (active: string) => renderToStaticMarkup(createElement(MobileTabs, { tabs, active, onChange: () => {}, label: 'Sections' }));

describe('MobileTabs', () => {
  it('renders a labelled tab list with the active tab selected and focusable, the others reachable by arrows only', () => {
    const html = render('shares');
    expect(html).toContain('role="tablist" aria-label="Sections"');
    const tabTags = [...html.matchAll(/<button[^>]*role="tab"[^>]*>/g)].map((m) => m[0]);
    expect(tabTags).toHaveLength(3);
    expect(tabTags.map((t) => /aria-selected="true"/.test(t))).toEqual([false, true, false]);
    expect(tabTags.map((t) => /tabindex="(-?\d)"/.exec(t)![1])).toEqual(['-1', '0', '-1']);
    // 44 px targets or more (min-h-14 is 56 px).
    for (const t of tabTags) expect(t).toContain('min-h-14');
  });

  it('shows only the active panel, labelled by its tab', () => {
    const html = render('settings');
    expect(html).toContain('Settings panel');
    expect(html).not.toContain('Upload panel');
    const panel = /<div role="tabpanel" id="([^"]+)" aria-labelledby="([^"]+)"/.exec(html)!;
    expect(html).toContain(`id="${panel[2]}"`);
    expect(html).toMatch(new RegExp(`aria-controls="${panel[1]}"[^>]*>`));
  });

  it('falls back to the first tab for an unknown id', () => {
    expect(render('nope')).toContain('Upload panel');
  });
});
