import { CompetitionMode } from '@rcs/contracts';
import { COMPETITION_MODES, hasIdeaRules, IDEA_MODES, isPeerEvaluated, isReplayed, REPLAYED_MODES } from './competition-modes';

describe('COMPETITION_MODES', () => {
  it('has rules for every mode of the contract, and nothing else', () => {
    expect(Object.keys(COMPETITION_MODES).sort()).toEqual(Object.values(CompetitionMode).sort());
  });

  it('says who decides each mode: validators replay standard and centerless, peers evaluate peer_evaluation', () => {
    for (const mode of Object.values(CompetitionMode)) expect(isReplayed(mode)).toBe(!isPeerEvaluated(mode));
    expect(REPLAYED_MODES).toEqual([CompetitionMode.Standard, CompetitionMode.Centerless]);
    expect(isPeerEvaluated(CompetitionMode.PeerEvaluation)).toBe(true);
  });

  it('applies the idea rules to centerless only', () => {
    expect(IDEA_MODES).toEqual([CompetitionMode.Centerless]);
    expect(Object.values(CompetitionMode).filter(hasIdeaRules)).toEqual([CompetitionMode.Centerless]);
  });

  it('gives each mode its own onboarding lines, each a Markdown list item', () => {
    const task = { metric_name: 'loss', min_peer_evaluations: 3 };
    for (const rules of Object.values(COMPETITION_MODES)) {
      const lines = rules.onboarding(task, 'https://coordinator.test');
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines) expect(line).toMatch(/^- /);
    }
  });
});
