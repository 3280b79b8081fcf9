import { describe, expect, it } from 'vitest';
import { asciiSlug, attachmentDisposition, exportFileNames } from './file-name';

describe('export file names', () => {
  it('folds Swedish and other letters to ASCII words', () => {
    expect(asciiSlug('Brf Linnégatan 12')).toBe('brf-linnegatan-12');
    expect(asciiSlug('Åkervägen Östra / Ärlan')).toBe('akervagen-ostra-arlan');
    expect(asciiSlug('Smørrebrød & Straße')).toBe('smorrebrod-strasse');
    expect(asciiSlug('  ——  ')).toBe('');
  });

  it('names system and period; the UTF-8 form keeps the name as written', () => {
    const names = exportFileNames({ word: 'bookings', systemName: 'Brf Linnégatan 12', from: '2026-01-01', to: '2026-12-31', extension: 'csv' });
    expect(names.ascii).toBe('bookings-brf-linnegatan-12-2026-01-01-2026-12-31.csv');
    expect(names.unicode).toBe('bookings-Brf-Linnégatan-12-2026-01-01-2026-12-31.csv');
    expect(exportFileNames({ word: 'bokningar', systemName: '???', from: '2026-01-01', to: '2026-01-31', extension: 'xlsx' }).ascii).toBe('bokningar-2026-01-01-2026-01-31.xlsx');
  });

  it('writes an RFC 6266 attachment header with an ASCII filename and an RFC 8187 filename*', () => {
    const header = attachmentDisposition(exportFileNames({ word: 'bokningar', systemName: "Brf Åsen's (gård)", from: '2026-01-01', to: '2026-12-31', extension: 'csv' }));
    expect(header).toBe(
      `attachment; filename="bokningar-brf-asen-s-gard-2026-01-01-2026-12-31.csv"; filename*=UTF-8''bokningar-Brf-%C3%85sen%27s-%28g%C3%A5rd%29-2026-01-01-2026-12-31.csv`,
    );
    expect(/^[\x20-\x7e]*$/.test(header)).toBe(true);
  });
});
