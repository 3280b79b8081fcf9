// A confirmation typed out before an act that cannot be undone (erasing a resident's personal data,
// issue 48): the dialog offers its button only when the text matches, and the server checks the
// same text again, so one press on the wrong search result erases nobody.

/** The text as compared: Unicode-normalised, case folded, spaces collapsed, no surrounding space. */
export function normaliseConfirmation(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('sv');
}

/** Whether `typed` is one of `accepted` (the resident's name or e-mail address); empty never is. */
export function confirmationMatches(typed: string | null | undefined, accepted: readonly (string | null | undefined)[]): boolean {
  const text = normaliseConfirmation(typed ?? '');
  if (text === '') return false;
  return accepted.some((a) => a && normaliseConfirmation(a) === text);
}
