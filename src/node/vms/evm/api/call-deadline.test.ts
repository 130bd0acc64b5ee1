import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goDuration, parseGoDuration } from './call-deadline.js';

describe("Go durations (a tracer's timeout)", () => {
  it('reads what time.ParseDuration reads', () => {
    assert.equal(parseGoDuration('5s'), 5_000);
    assert.equal(parseGoDuration('1.5s'), 1_500);
    assert.equal(parseGoDuration('300ms'), 300);
    assert.equal(parseGoDuration('2m30s'), 150_000);
    assert.equal(parseGoDuration('1h'), 3_600_000);
    assert.equal(parseGoDuration('.5s'), 500);
    assert.equal(parseGoDuration('1.s'), 1_000);
    assert.equal(parseGoDuration('250us'), 0.25);
    assert.equal(parseGoDuration('250µs'), 0.25);
    assert.equal(parseGoDuration('1ns'), 1e-6);
    assert.equal(parseGoDuration('-1s'), -1_000);
    assert.equal(parseGoDuration('+2s'), 2_000);
    assert.equal(parseGoDuration('0'), 0);
  });

  it("refuses what it refuses, in Go's words", () => {
    assert.throws(() => parseGoDuration(''), { message: 'time: invalid duration ""' });
    assert.throws(() => parseGoDuration('abc'), { message: 'time: invalid duration "abc"' });
    assert.throws(() => parseGoDuration('.s'), { message: 'time: invalid duration ".s"' });
    assert.throws(() => parseGoDuration('5'), { message: 'time: missing unit in duration "5"' });
    assert.throws(() => parseGoDuration('1s5'), { message: 'time: missing unit in duration "1s5"' });
    assert.throws(() => parseGoDuration('5x'), { message: 'time: unknown unit "x" in duration "5x"' });
  });

  it('prints durations back as Go does', () => {
    assert.equal(goDuration(parseGoDuration('1.5s')), '1.5s');
    assert.equal(goDuration(parseGoDuration('250ms')), '250ms');
  });
});
