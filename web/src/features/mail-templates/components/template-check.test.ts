import { describe, expect, it } from 'vitest';
import { checkTemplate, hasTemplateProblems, placeholdersIn } from './template-check.ts';

const placeholders = [
  { name: 'userName', required: false },
  { name: 'link', required: true },
];

describe('template check', () => {
  it('reads placeholder names with spaces trimmed, each once', () => {
    expect(placeholdersIn('{{ userName }} {{link}} {{userName}}')).toEqual(['userName', 'link']);
  });

  it('names unknown placeholders per field and required ones missing from the body', () => {
    const problems = checkTemplate(placeholders, { subject: '{{password}} {{link}}', body: 'Hi {{userName}} {{foo}}' });
    expect(problems).toEqual({ unknown: { subject: ['password'], body: ['foo'] }, missing: ['link'] });
    expect(hasTemplateProblems(problems)).toBe(true);
  });

  it('accepts a template that uses known placeholders and has the required ones in the body', () => {
    expect(hasTemplateProblems(checkTemplate(placeholders, { subject: 'Hello', body: '{{link}}' }))).toBe(false);
  });
});
