import { PARTICIPATION_DISCLAIMER } from './participation-disclaimer';

describe('PARTICIPATION_DISCLAIMER', () => {
  it('is the fixed no_reward_guarantee payload clients must show', () => {
    expect(PARTICIPATION_DISCLAIMER).toMatchObject({ code: 'no_reward_guarantee', must_display: true, url: '/api/v1/disclaimer.md' });
    expect(PARTICIPATION_DISCLAIMER.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(PARTICIPATION_DISCLAIMER.text).toBe(PARTICIPATION_DISCLAIMER.full_text);
  });

  it('states that nothing is guaranteed and that infrastructure may fail or change', () => {
    const text = PARTICIPATION_DISCLAIMER.text.toLowerCase();
    for (const word of ['reward', 'payout', 'ranking', 'validator acceptance', 'infrastructure may fail or change']) {
      expect({ word, found: text.includes(word) }).toEqual({ word, found: true });
    }
  });
});
