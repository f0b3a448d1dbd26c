import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MobileTabBar, mobilePanelProps, shownOn } from '../app/files/_components/mobile-tabs';

const tabs = ['Upload', 'Shares', 'Settings'].map((label) => ({
  id: label.toLowerCase(),
  label,
  icon: createElement('svg', { viewBox: '0 0 24 24' }),
}));

const render = (active: string) => renderToStaticMarkup(createElement(MobileTabBar, { tabs, active, onChange: () => {}, label: 'Sections', idBase: 'x' }));

describe('MobileTabBar', () => {
  it('renders a labelled tab list, hidden from sm up, with the active tab selected and focusable, the others reachable by arrows only', () => {
    const html = render('shares');
    expect(html).toContain('role="tablist" aria-label="Sections"');
    expect(html).toMatch(/role="tablist"[^>]*class="[^"]*\bsm:hidden\b/);
    const tabTags = [...html.matchAll(/<button[^>]*role="tab"[^>]*>/g)].map((m) => m[0]);
    expect(tabTags).toHaveLength(3);
    expect(tabTags.map((t) => /aria-selected="true"/.test(t))).toEqual([false, true, false]);
    expect(tabTags.map((t) => /tabindex="(-?\d)"/.exec(t)![1])).toEqual(['-1', '0', '-1']);
    // 44 px targets or more (min-h-14 is 56 px).
    for (const t of tabTags) expect(t).toContain('min-h-14');
  });

  it('points every tab at its panel, and a panel on a narrow screen back at its tab', () => {
    const html = render('settings');
    for (const id of ['upload', 'shares', 'settings']) {
      const panel = mobilePanelProps('x', id, true);
      expect(panel.role).toBe('tabpanel');
      expect(html).toContain(`id="${panel['aria-labelledby']}"`);
      expect(html).toContain(`aria-controls="${panel.id}"`);
    }
  });

  it('announces panels as tab panels only where the tab bar is shown', () => {
    expect(mobilePanelProps('x', 'upload', false)).toEqual({ id: mobilePanelProps('x', 'upload', true).id });
  });

  it('falls back to the first tab for an unknown id', () => {
    const first = /<button[^>]*role="tab"[^>]*>/.exec(render('nope'))![0];
    expect(first).toContain('aria-selected="true"');
  });

  it('shows a section on each layout independently', () => {
    expect(shownOn(true, false)).toBe('sm:block max-sm:hidden');
    expect(shownOn(false, true)).toBe('sm:hidden max-sm:block');
  });
});
