import { isUuid } from './ids';

describe('isUuid', () => {
  it('accepts a UUID in either case', () => {
    expect(isUuid('0b8e2a8c-3f5d-4c1e-9a7b-2d6f1e0c4b3a')).toBe(true);
    expect(isUuid('0B8E2A8C-3F5D-4C1E-9A7B-2D6F1E0C4B3A')).toBe(true);
  });

  it.each(['', '42', 'not-a-uuid', '0b8e2a8c3f5d4c1e9a7b2d6f1e0c4b3a', '{0b8e2a8c-3f5d-4c1e-9a7b-2d6f1e0c4b3a}', '0b8e2a8c-3f5d-4c1e-9a7b-2d6f1e0c4b3a\n', '0b8e2a8c-3f5d-4c1e-9a7b-2d6f1e0c4b3g'])(
    'refuses %j: it can name no row',
    (value) => expect(isUuid(value)).toBe(false),
  );
});
