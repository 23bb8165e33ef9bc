import { describe, expect, it } from 'vitest';
import { fieldPath, validationError } from '../../../src/dialects/shared/validation-message.js';

describe('validation messages name the field', () => {
  it('renders JSON pointers as member paths', () => {
    expect(fieldPath('/messages/0/role')).toBe('messages[0].role');
    expect(fieldPath('', 'model')).toBe('model');
  });

  it('reports a range error at its field', () => {
    const error = validationError([{ instancePath: '/temperature', keyword: 'maximum', message: 'must be <= 2', params: {} }]);
    expect(error.status).toBe(400);
    expect(error.message).toBe('temperature: must be <= 2');
  });

  it('reports a missing member by name', () => {
    const error = validationError([{ instancePath: '', keyword: 'required', params: { missingProperty: 'messages' } }]);
    expect(error.message).toBe('messages: is required');
  });

  it('reports a union once, with the allowed values', () => {
    const error = validationError([
      { instancePath: '/messages/0/role', keyword: 'const', message: 'must be equal to constant', params: { allowedValue: 'system' } },
      { instancePath: '/messages/0/role', keyword: 'const', message: 'must be equal to constant', params: { allowedValue: 'user' } },
      { instancePath: '/messages/0/role', keyword: 'anyOf', message: 'must match a schema in anyOf', params: {} },
    ]);
    expect(error.message).toBe('messages[0].role: must be one of "system", "user"');
  });
});
