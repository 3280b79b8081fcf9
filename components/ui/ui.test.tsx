import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Badge } from './badge';
import { Button } from './button';
import { Card, cardClass } from './card';
import { ConfirmDialog } from './confirm-dialog';
import { Dialog } from './dialog';

describe('ui primitives', () => {
  it('Button is a native button, type="button" unless told, with its variant’s look', () => {
    expect(renderToStaticMarkup(<Button>Book</Button>)).toMatch(/^<button type="button" class="[^"]*bg-brand-600[^"]*">Book<\/button>$/);
    const submit = renderToStaticMarkup(
      <Button type="submit" variant="secondary" className="min-h-11" disabled aria-label="Search residents">
        Search
      </Button>,
    );
    expect(submit).toMatch(/^<button type="submit" class="[^"]*border-slate-300[^"]* min-h-11" disabled="" aria-label="Search residents">Search<\/button>$/);
  });

  it('Card is the element asked for, with the card look and extra classes', () => {
    expect(renderToStaticMarkup(<Card as="li" aria-label="Anna">x</Card>)).toBe(`<li class="${cardClass}" aria-label="Anna">x</li>`);
    expect(renderToStaticMarkup(<Card className="flex">x</Card>)).toBe(`<div class="${cardClass} flex">x</div>`);
  });

  it('Badge shows its words with a tone, or with the caller’s colours', () => {
    expect(renderToStaticMarkup(<Badge tone="success">Active</Badge>)).toMatch(/^<span class="[^"]*rounded-full[^"]*text-xs[^"]*bg-emerald-100[^"]*">Active<\/span>$/);
    expect(renderToStaticMarkup(<Badge size="sm" className="border" data-kind="free">Free</Badge>)).toMatch(/^<span class="[^"]*text-sm border" data-kind="free">Free<\/span>$/);
  });

  it('Dialog is a native dialog named by its title, empty while closed', () => {
    const closed = renderToStaticMarkup(
      <Dialog open={false} onClose={() => undefined} labelledBy="t">
        <h2 id="t">Title</h2>
      </Dialog>,
    );
    expect(closed).toMatch(/^<dialog aria-labelledby="t" class="[^"]*"><\/dialog>$/);
    const open = renderToStaticMarkup(
      <Dialog open onClose={() => undefined} labelledBy="t">
        <h2 id="t">Title</h2>
      </Dialog>,
    );
    expect(open).toContain('<h2 id="t">Title</h2>');
  });

  it('ConfirmDialog is named by its question and offers Cancel, then the action, below the consequences', () => {
    const props = { title: 'Switch off Entré?', body: 'It cannot be undone.', confirmLabel: 'Switch off', cancelLabel: 'Cancel', onConfirm: () => undefined, onCancel: () => undefined };
    const html = renderToStaticMarkup(<ConfirmDialog open {...props} />);
    const titleId = /<dialog aria-labelledby="([^"]+)"/.exec(html)?.[1];
    expect(titleId).toBeTruthy();
    expect(html).toContain(`<h2 id="${titleId}" class="text-lg font-semibold">Switch off Entré?</h2>`);
    expect(html).toMatch(/It cannot be undone\.<\/div>.*<button type="button" class="[^"]*border-slate-300[^"]*">Cancel<\/button><button type="button" class="[^"]*bg-brand-600[^"]*">Switch off<\/button>/);
    expect(renderToStaticMarkup(<ConfirmDialog open={false} {...props} />)).not.toContain('Switch off');
  });

  it('ConfirmDialog with a text to type offers a labelled field and holds its button until the text matches (issue 48)', () => {
    const props = { title: 'Erase Anna?', body: 'Only hers.', confirmLabel: 'Erase', cancelLabel: 'Cancel', onConfirm: () => undefined, onCancel: () => undefined };
    const html = renderToStaticMarkup(<ConfirmDialog open {...props} typed={{ label: 'Type their name or e-mail address to confirm', accepted: ['Anna Åberg'] }} />);
    const fieldId = /<label for="([^"]+)"[^>]*>Type their name or e-mail address to confirm<\/label>/.exec(html)?.[1];
    expect(fieldId).toBeTruthy();
    expect(html).toContain(`<input id="${fieldId}" type="text"`);
    expect(html).toMatch(/<button type="button" class="[^"]*" disabled="">Erase<\/button>/);
  });
});
