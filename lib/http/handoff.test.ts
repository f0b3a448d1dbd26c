import { describe, expect, it } from 'vitest';
import { handoffHeaderValue, parseHandoffHeader, setHandoffToken } from './handoff';

describe('the handoff header between the threads', () => {
  it('names an object only with the per-start secret in front of it', () => {
    setHandoffToken('s3cret-of-this-start');
    const value = handoffHeaderValue({ key: 'objects/ab/cd', start: 5, end: 99 });
    expect(parseHandoffHeader(value, 's3cret-of-this-start')).toEqual({ key: 'objects/ab/cd', start: 5, end: 99 });
    // What a reply could carry by any other way: no secret, another one, or none at all.
    expect(parseHandoffHeader('{"key":"objects/ab/cd"}', 's3cret-of-this-start')).toBeNull();
    expect(parseHandoffHeader(value, 'another-start')).toBeNull();
    expect(parseHandoffHeader(' {"key":"x"}', '')).toBeNull();
    expect(parseHandoffHeader('s3cret-of-this-start {"key":', 's3cret-of-this-start')).toBeNull();
    expect(parseHandoffHeader('s3cret-of-this-start {"start":1}', 's3cret-of-this-start')).toBeNull();
  });
});
