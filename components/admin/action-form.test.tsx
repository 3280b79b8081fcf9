import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { withIntl } from '@/tests/intl';
import { ActionForm } from './action-form';

const action = () => Promise.resolve({});

describe('ActionForm', () => {
  it('is a form with its submit button and a status line for the outcome', () => {
    const html = renderToStaticMarkup(
      withIntl(
        <ActionForm action={action} submitLabel="Save" submitAriaLabel="Save Ekhagen">
          <input name="name" />
        </ActionForm>,
      ),
    );
    expect(html).toContain('<button type="submit"');
    expect(html).toContain('aria-label="Save Ekhagen"');
    expect(html).toContain('role="status"');
  });

  it('renders in Swedish with the labels it is given (its confirmation closed until asked)', () => {
    const html = renderToStaticMarkup(
      withIntl(
        <ActionForm action={action} submitLabel="Koppla bort" confirm={{ title: 'Koppla bort Ekhagen?', body: 'x', confirmLabel: 'Koppla bort Ekhagen' }}>
          <input name="deviceId" />
        </ActionForm>,
        'sv',
      ),
    );
    expect(html).toContain('>Koppla bort</button>');
    expect(html).not.toContain('Avbryt');
  });
});
