import { describe, expect, it } from 'vitest';
import {
  coordinateMatch,
  COORDINATE_EPSILON,
  exactMatchGrid,
  fuzzyMatch,
  MAP_NAV_EPSILON,
  meanRelativeAccuracy,
  normaliseName,
  parseCountAnswer,
  parseGridAnswer,
  parseJudgeReply,
  tokenSetSimilarity,
} from './scoring';

describe('exact_match on grid answers', () => {
  it('reads the labelled cell in several spellings', () => {
    for (const text of ['x:3 y:4', 'x: 3, y: 4', 'X=3, Y=4', '(x:3, y:4)', 'x = (3), y = (4)', '{"x": 3, "y": 4}', 'My position is x:3 y:4.', 'y:4 x:3', '(3, 4)', '3,4']) {
      expect(parseGridAnswer(text), text).toEqual({ x: 3, y: 4 });
      expect(exactMatchGrid(text, { x: 3, y: 4 }), text).toBe(1);
    }
  });

  it('scores wrong, partial, ambiguous and unparseable answers 0', () => {
    for (const text of ['x:4 y:3', 'x:3 y:5', 'x:3', 'y:4', 'x:3.5 y:4', 'x:3 y:4, or maybe x:5 y:4', 'row 4 column 3', '', 'max:3 y:4', 'x:34 y:4']) {
      expect(exactMatchGrid(text, { x: 3, y: 4 }), text).toBe(0);
    }
    expect(parseGridAnswer('x:3.5 y:4')).toBeNull();
    expect(parseGridAnswer('x:2 y:4 then x:5 y:4')).toBeNull();
    expect(parseGridAnswer('x:3 y:4, so x:3')).toEqual({ x: 3, y: 4 });
    expect(parseGridAnswer('I do not know')).toBeNull();
  });
});

describe('coordinate_match', () => {
  it('counts a distance of exactly epsilon as within and anything beyond as not', () => {
    expect(COORDINATE_EPSILON).toBe(10);
    expect(MAP_NAV_EPSILON).toBe(20);
    expect(coordinateMatch([6, 8], [0, 0], COORDINATE_EPSILON)).toBe(1);
    expect(coordinateMatch([6, 8.0001], [0, 0], COORDINATE_EPSILON)).toBe(0);
    expect(coordinateMatch([112, 216], [100, 200], MAP_NAV_EPSILON)).toBe(1);
    expect(coordinateMatch([112, 216.001], [100, 200], MAP_NAV_EPSILON)).toBe(0);
    expect(coordinateMatch([5, 5], [5, 5], 0)).toBe(1);
    expect(coordinateMatch([Number.NaN, 0], [0, 0], COORDINATE_EPSILON)).toBe(0);
  });
});

describe('mean_relative_accuracy', () => {
  it('averages the strict threshold tests over C = {0.50, ..., 0.95}', () => {
    expect(meanRelativeAccuracy(10, 10)).toBe(1);
    // relative error 0.1 < 1 - θ for θ = 0.50 ... 0.85 (8 of 10); at θ = 0.90, 0.1 < 0.1 fails.
    expect(meanRelativeAccuracy(9, 10)).toBe(0.8);
    expect(meanRelativeAccuracy(11, 10)).toBe(0.8);
    // relative error 0.15: passes θ = 0.50 ... 0.80; exactly at θ = 0.85 it fails (strict).
    expect(meanRelativeAccuracy(17, 20)).toBe(0.7);
    expect(meanRelativeAccuracy(23, 20)).toBe(0.7);
    // relative error 0.05: passes all but θ = 0.95.
    expect(meanRelativeAccuracy(19, 20)).toBe(0.9);
    // relative error 0.4: only θ = 0.50, 0.55 (0.4 < 0.5, 0.4 < 0.45).
    expect(meanRelativeAccuracy(6, 10)).toBe(0.2);
    // relative error 0.45: only θ = 0.50.
    expect(meanRelativeAccuracy(11, 20)).toBe(0.1);
    // relative error 0.5 passes no threshold.
    expect(meanRelativeAccuracy(5, 10)).toBe(0);
    expect(meanRelativeAccuracy(15, 10)).toBe(0);
    // relative error 1/3 of truth 3: 0.333 < 0.35 (θ = 0.65) passes, < 0.3 fails.
    expect(meanRelativeAccuracy(2, 3)).toBe(0.4);
    expect(meanRelativeAccuracy(9.5, 10)).toBe(0.9);
  });

  it('scores zero, negative and non-finite predictions', () => {
    expect(meanRelativeAccuracy(0, 10)).toBe(0);
    expect(meanRelativeAccuracy(-1, 10)).toBe(0);
    expect(meanRelativeAccuracy(-10, 10)).toBe(0);
    expect(meanRelativeAccuracy(Number.NaN, 10)).toBe(0);
    expect(meanRelativeAccuracy(Number.POSITIVE_INFINITY, 10)).toBe(0);
  });

  it('scores truth 0 as exact match of 0 and rejects a negative truth', () => {
    expect(meanRelativeAccuracy(0, 0)).toBe(1);
    expect(meanRelativeAccuracy(1, 0)).toBe(0);
    expect(meanRelativeAccuracy(-1, 0)).toBe(0);
    expect(() => meanRelativeAccuracy(3, -1)).toThrow(RangeError);
    expect(() => meanRelativeAccuracy(3, Number.NaN)).toThrow(RangeError);
  });

  it('parses the first number of a count answer, in digits or words', () => {
    expect(parseCountAnswer('5')).toBe(5);
    expect(parseCountAnswer('I counted 12 vending machines.')).toBe(12);
    expect(parseCountAnswer('There are five.')).toBe(5);
    expect(parseCountAnswer('Twelve trees')).toBe(12);
    expect(parseCountAnswer('zero')).toBe(0);
    expect(parseCountAnswer('twenty')).toBe(20);
    expect(parseCountAnswer('twenty-one machines')).toBe(21);
    expect(parseCountAnswer('thirty two')).toBe(32);
    expect(parseCountAnswer('seven, maybe 8')).toBe(7);
    expect(parseCountAnswer('8 or seven')).toBe(8);
    expect(parseCountAnswer('about 3.5')).toBe(3.5);
    expect(parseCountAnswer('1,200 in all')).toBe(1200);
    expect(parseCountAnswer('-2')).toBe(-2);
    expect(parseCountAnswer('Answer: 4.')).toBe(4);
    expect(parseCountAnswer('Block B2 has 6')).toBe(6);
    expect(parseCountAnswer('someone counted often')).toBeNull();
    expect(parseCountAnswer('I could not count them')).toBeNull();
    expect(parseCountAnswer('')).toBeNull();
  });
});

describe('fuzzy_match on names', () => {
  const truth = { name: 'Rossi Bakery', aliases: ['12 Oak Street'] };
  const others = ['Rossi Books', 'Patel Cafe', 'Rossi Bakery', 'Oakley Florist'];

  it('normalises names', () => {
    expect(normaliseName("The Rossi's Bakery Shop!")).toBe('rossi bakery');
    expect(normaliseName('  rossi   BAKERY ')).toBe('rossi bakery');
    expect(normaliseName('Twelve Oak St.')).toBe('12 oak street');
    expect(normaliseName('twenty-one Elm Ave')).toBe('21 elm avenue');
    expect(normaliseName('Café Rossi & Sons')).toBe('cafe rossi and sons');
    expect(normaliseName("O'Brien's store")).toBe('obrien');
    expect(normaliseName('a an the shop store')).toBe('');
  });

  it('measures token-set similarity with typo tolerance', () => {
    expect(tokenSetSimilarity('Rossi Bakery', "rossi's bakery")).toBe(1);
    expect(tokenSetSimilarity('Rossi Bakery', 'Rossa Bakery')).toBeCloseTo(0.9, 12);
    expect(tokenSetSimilarity('Rossi Bakery', 'Rossi Books')).toBe(0.5);
    expect(tokenSetSimilarity('Rossi Bakery', 'Patel Cafe')).toBe(0);
    expect(tokenSetSimilarity('12 Oak Street', '14 Oak Street')).toBeCloseTo(2 / 3, 12);
    expect(tokenSetSimilarity('Rossi Bakery', 'Rossi Bakery Cafe')).toBe(0.8);
    expect(tokenSetSimilarity('Rossi Bakery', 'Rosis Bakery')).toBeCloseTo(0.9, 12);
    expect(tokenSetSimilarity('', 'Rossi')).toBe(0);
    expect(tokenSetSimilarity('Xu Deli', 'Xy Deli')).toBe(0.5);
  });

  it('matches spellings of the true name', () => {
    for (const answer of ["Rossi's Bakery", 'rossi bakery', 'The Rossi Bakery shop', 'ROSSI BAKERY.', "I think it is Rossi's Bakery on Oak Street", 'Rossi Bakery!']) {
      expect(fuzzyMatch(answer, truth, others).score, answer).toBe(1);
    }
    const r = fuzzyMatch('rossi bakery', truth, others);
    expect(r.similarity).toBe(1);
    expect(r.bestOther).toBe('Rossi Books');
    expect(r.bestOtherSimilarity).toBe(0.5);
  });

  it('rejects a confusable other name', () => {
    const r = fuzzyMatch('Rossi Books', truth, others);
    expect(r.score).toBe(0);
    expect(r.bestOther).toBe('Rossi Books');
    expect(r.bestOtherSimilarity).toBe(1);
    expect(fuzzyMatch('Patel Cafe', truth, others).score).toBe(0);
    expect(fuzzyMatch('Rossi', truth, others).score).toBe(0);
    expect(fuzzyMatch('I do not know', truth, others).score).toBe(0);
    expect(fuzzyMatch('', truth, others).score).toBe(0);
  });

  it('tolerates a typo only when it names no other shop', () => {
    expect(fuzzyMatch('Rossa Bakery', truth, [...others, 'Rossa Bakery']).score).toBe(0);
    const r = fuzzyMatch('Rossa Bakery', truth, others);
    expect(r.score).toBe(1);
    expect(r.similarity).toBeCloseTo(0.9, 12);
  });

  it('matches an alias such as the address', () => {
    expect(fuzzyMatch('twelve Oak Street', truth, others).score).toBe(1);
    expect(fuzzyMatch('12 Oak St', truth, others).score).toBe(1);
    expect(fuzzyMatch('It is at 12 Oak Street.', truth, others).score).toBe(1);
    expect(fuzzyMatch('14 Oak Street', truth, others).score).toBe(0);
  });

  it('scores an answer naming two candidates as ambiguous', () => {
    expect(fuzzyMatch('Rossi Bakery or Patel Cafe', truth, others).score).toBe(0);
    expect(fuzzyMatch('Rossi Bakery', truth, ['Patel Cafe'], { margin: 0 }).score).toBe(1);
  });

  it('applies threshold and margin options', () => {
    // similarity 0.9 to the truth, 0.4 to Rossi Books.
    expect(fuzzyMatch('Rossa Bakery', truth, ['Rossi Books'], { threshold: 0.95 }).score).toBe(0);
    expect(fuzzyMatch('Rossa Bakery', truth, ['Rossi Books'], { margin: 0.5 }).score).toBe(1);
    expect(fuzzyMatch('Rossa Bakery', truth, ['Rossi Books'], { margin: 0.51 }).score).toBe(0);
    const none = fuzzyMatch('Rossi Bakery', truth, []);
    expect(none).toEqual({ score: 1, similarity: 1, bestOther: null, bestOtherSimilarity: 0 });
  });
});

describe('LLM judge replies', () => {
  it('reads the boolean is_correct field', () => {
    expect(parseJudgeReply('{"is_correct": true}')).toEqual({ ok: true, isCorrect: true });
    expect(parseJudgeReply('{"is_correct": false}')).toEqual({ ok: true, isCorrect: false });
    expect(parseJudgeReply('```json\n{"is_correct": true}\n```')).toEqual({ ok: true, isCorrect: true });
    expect(parseJudgeReply('Verdict:\n```json\n{ "is_correct" : false, "reason": "a {different} shop" }\n```\nDone.')).toEqual({ ok: true, isCorrect: false });
    expect(parseJudgeReply('Here you go: {"reason": {"note": "same shop"}, "is_correct": true} thanks')).toEqual({ ok: true, isCorrect: true });
  });

  it('gives errors, never guesses', () => {
    for (const text of [
      '{"is_correct": tru}',
      '{"is_correct": true',
      '{is_correct: true}',
      '{"is_correct": "yes"}',
      '{"is_correct": "true"}',
      '{"is_correct": 1}',
      '{"is_correct": null}',
      '{"correct": true}',
      '{}',
      'The answer is not incorrect',
      'correct',
      '',
    ]) {
      const r = parseJudgeReply(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.error, text).not.toBe('');
    }
    expect(parseJudgeReply('{"is_correct": "yes"}')).toEqual({ ok: false, error: '"is_correct" is "yes", not a boolean' });
  });
});
