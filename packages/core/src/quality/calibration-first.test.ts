// The first half of the calibration set: eight text pages' copies and the blank sheets.
import { it } from 'vitest';
import { checkCalibration } from '../../test/calibration-check.js';

it(
  'the warnings meet their goals on the first half of the calibration set (confusion matrix printed)',
  () => checkCalibration('first', ['dark', 'washedOut', 'blurry', 'blank']),
  120_000,
);
