/**
 * Text a person reads must come from the message catalogue (messages/*.json), never be written
 * into a component: JSX text, string attributes people read (aria-label, title, placeholder, alt,
 * label…), strings rendered as children (`{cond ? 'Yes' : 'No'}`), and label-like properties of
 * object literals (`{ label: 'Systems' }`). Anything without a letter (punctuation, "·", "–",
 * numbers) passes. A deliberate exception (a language's own name) says why in an eslint-disable comment.
 */

const LETTER = /\p{L}/u;
const PROSE = /\s|^\p{Lu}|[.!?…:]$/u;

/** Attributes whose value is read by people (aria-* that reference ids are not among them). */
const READ_ATTRIBUTES = new Set([
  'aria-label',
  'aria-valuetext',
  'aria-roledescription',
  'aria-description',
  'aria-placeholder',
  'title',
  'placeholder',
  'alt',
  'label',
  'description',
  'heading',
  'legend',
  'caption',
  'summary',
  'emptyText',
  'confirmLabel',
  'cancelLabel',
  'submitLabel',
  'pendingLabel',
  'message',
]);

const READ_PROPERTIES = new Set(['label', 'title', 'placeholder', 'description', 'heading', 'message', 'text', 'summary', 'caption']);

const hasWords = (text) => typeof text === 'string' && LETTER.test(text);

/** The literal strings an expression may evaluate to, through ?:, && / || / ?? and template text. */
function literalStrings(node) {
  if (!node) return [];
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' ? [node] : [];
    case 'TemplateLiteral':
      return node.quasis.some((q) => hasWords(q.value.cooked)) ? [node] : [];
    case 'ConditionalExpression':
      return [...literalStrings(node.consequent), ...literalStrings(node.alternate)];
    case 'LogicalExpression':
      return [...literalStrings(node.left), ...literalStrings(node.right)];
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
      return literalStrings(node.expression);
    default:
      return [];
  }
}

function textOf(node) {
  if (node.type === 'Literal') return node.value;
  if (node.type === 'TemplateLiteral') return node.quasis.map((q) => q.value.cooked).join('…');
  return '';
}

const clip = (text) => {
  const t = String(text).replace(/\s+/g, ' ').trim();
  return t.length > 40 ? `${t.slice(0, 39)}…` : t;
};

export const noLiteralUiString = {
  meta: {
    type: 'problem',
    docs: { description: 'Text shown to people comes from the message catalogue, not from a literal.' },
    schema: [],
    messages: {
      literal: 'Text shown to people must come from the message catalogue (messages/*.json, rendered with t()): "{{text}}".',
    },
  },
  create(context) {
    const report = (node, text) => context.report({ node, messageId: 'literal', data: { text: clip(text) } });
    const reportLiterals = (expression) => {
      for (const literal of literalStrings(expression)) if (hasWords(textOf(literal))) report(literal, textOf(literal));
    };
    return {
      JSXText(node) {
        if (hasWords(node.value)) report(node, node.value);
      },
      JSXAttribute(node) {
        const name = node.name.type === 'JSXIdentifier' ? node.name.name : `${node.name.namespace.name}:${node.name.name.name}`;
        if (!READ_ATTRIBUTES.has(name) || !node.value) return;
        if (node.value.type === 'Literal') {
          if (hasWords(node.value.value)) report(node.value, node.value.value);
        } else if (node.value.type === 'JSXExpressionContainer') {
          reportLiterals(node.value.expression);
        }
      },
      JSXExpressionContainer(node) {
        // Children only: attributes are judged above, by name.
        if (node.parent.type === 'JSXElement' || node.parent.type === 'JSXFragment') reportLiterals(node.expression);
      },
      Property(node) {
        const key = node.key.type === 'Identifier' ? node.key.name : node.key.type === 'Literal' ? node.key.value : undefined;
        if (!READ_PROPERTIES.has(key) || node.parent.type !== 'ObjectExpression') return;
        // Outside JSX a lone lower-case word is as likely a catalogue key ({ title: 'wasBooked' })
        // as a word: only prose counts here (a space, a capital first letter, end punctuation).
        for (const literal of literalStrings(node.value)) {
          const text = textOf(literal);
          if (hasWords(text) && PROSE.test(text)) report(literal, text);
        }
      },
    };
  },
};

export const portalPlugin = { rules: { 'no-literal-ui-string': noLiteralUiString } };
